import { defineTool, structuredReply, type Product } from '../../../kernel/sdk/index.ts';
import { PRODUCT_LABEL } from './product-labels.ts';
import { listCredentialsOutput } from './output-shapes.ts';

/** `<product>_list_credentials`: where the caller has credentials and host keys; never what they are. */
export function listCredentialsTool(product: Product, kinds: string) {
  return defineTool({
    name: 'list_credentials',
    title: `List ${PRODUCT_LABEL[product]} credentials`,
    description: `Your stored ${PRODUCT_LABEL[product]} credentials (${kinds}) and SSH host-key states; never a secret.`,
    input: {},
    output: listCredentialsOutput,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    access: { minProfile: 'auditor' },
    service: 'default',
    async handler(_input, ctx) {
      const credentials = await ctx.vault.list(product);
      const hostKeys = ctx.vault.hostKeys.list(product);
      return structuredReply({ product, credentials, host_keys: hostKeys });
    },
  });
}
