import { defineTool, structuredReply } from '../../../kernel/sdk/index.ts';
import { hostField } from './credential-input.ts';
import {
  KIND_LABEL,
  A_PRODUCT,
  PRODUCT_LABEL,
  kindPrefix,
  type CredentialToolSpec,
} from './product-labels.ts';
import { deletedOutput } from './output-shapes.ts';

/** `<product>_[<kind>_]delete_credentials`: removes a credential from the caller's own vault. */
export function deleteCredentialsTool(spec: CredentialToolSpec) {
  const what = `${KIND_LABEL[spec.kind]} credentials`;
  return defineTool({
    name: `${kindPrefix(spec.kind, spec.primary)}delete_credentials`,
    title: `Delete ${PRODUCT_LABEL[spec.product]} ${what}`,
    description: `Deletes the ${what} stored for ${A_PRODUCT[spec.product]} host from your vault. Fails if none are stored.`,
    input: { host: hostField },
    output: deletedOutput,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    access: { minProfile: 'admin' },
    service: 'default',
    async handler(input, ctx) {
      await ctx.vault.delete(spec.product, spec.kind, input.host);
      return structuredReply({ deleted: true, product: spec.product, kind: spec.kind, host: input.host });
    },
  });
}
