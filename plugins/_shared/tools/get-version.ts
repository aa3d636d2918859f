import { structuredReply, toolsFor, type Product } from '../../../kernel/sdk/index.ts';
import { hostField } from './credential-input.ts';
import type { AxlState } from './plugin-state.ts';
import { PRODUCT_LABEL } from './product-labels.ts';
import { versionOutput } from './output-shapes.ts';

/** `<product>_get_version`: the node's full version through AXL getCCMVersion. */
export function getVersionTool(product: Product) {
  return toolsFor<AxlState>()({
    name: 'get_version',
    title: `${PRODUCT_LABEL[product]} version`,
    description: `The ${PRODUCT_LABEL[product]} node's version (AXL getCCMVersion), and the AXL schema version negotiated with it.`,
    input: { host: hostField },
    output: versionOutput,
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
