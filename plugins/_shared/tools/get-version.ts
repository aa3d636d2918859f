import { structuredReply, toolsFor, type Product } from '../../../kernel/sdk/index.ts';
import { hostField } from './credential-input.ts';
import type { AxlState } from './plugin-state.ts';
import { PRODUCT_LABEL } from './product-labels.ts';

/** `<product>_get_version`: the node's full version through AXL getCCMVersion. */
export function getVersionTool(product: Product) {
  return toolsFor<AxlState>()({
    name: 'get_version',
    title: `${PRODUCT_LABEL[product]} version`,
    description: `Asks a ${PRODUCT_LABEL[product]} node for its version through AXL (getCCMVersion), with your stored AXL credentials. Also says which AXL schema version the server negotiated with it.`,
    input: { host: hostField },
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    access: { minProfile: 'auditor' },
    service: 'axl',
    summary: () => ({ operation: 'getCCMVersion' }),
    async handler(input, ctx) {
      return ctx.shared.axl.with(
        ctx.vault,
        input.host,
        async ({ client }) =>
          structuredReply({
            host: input.host,
            version: await client.getVersion(),
            axl_version: client.version,
          }),
        ctx.signal,
      );
    },
  });
}
