import { structuredReply, toolsFor, type Product } from '../../../kernel/sdk/index.ts';
import { probeAxlVersion } from '../axl/probe.ts';
import { downloadAxlToolkit } from '../axl/toolkit.ts';
import { loadEndpoint, PORTS } from '../node/endpoint.ts';
import { hostField } from './credential-input.ts';
import type { AxlState } from './plugin-state.ts';
import { A_PRODUCT, PRODUCT_LABEL } from './product-labels.ts';
import { throttledProgress } from './progress.ts';
import { downloadAxlToolkitOutput } from './output-shapes.ts';

/** `<product>_download_axl_toolkit`: fills the local AXL schema cache from the node's toolkit zip. */
export function downloadAxlToolkitTool(product: Product) {
  return toolsFor<AxlState>()({
    name: 'download_axl_toolkit',
    title: `Download the ${PRODUCT_LABEL[product]} AXL toolkit`,
    description: `Downloads the AXL SQL toolkit zip from ${A_PRODUCT[product]} publisher (/plugins/axlsqltoolkit.zip) and stores only its WSDL/XSD schema files in the local schema cache, one folder per AXL version (the node's own version for schema/current/). Path traversal, links and oversized entries are refused; the Java sample is never extracted. Needed once per version before any AXL tool works. Reports progress.`,
    input: { host: hostField },
    output: downloadAxlToolkitOutput,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    access: { minProfile: 'admin' },
    service: 'axl',
    task: 'optional',
    summary: () => ({ operation: 'GET /plugins/axlsqltoolkit.zip' }),
    async handler(input, ctx) {
      const endpoint = await loadEndpoint(
        ctx.vault,
        product,
        'axl',
        input.host,
        PORTS.https,
        ctx.shared.axl.addresses,
      );
      const io = { ...ctx.shared.axl.requestOptions, signal: ctx.signal };
      const nodeVersion = await probeAxlVersion({ ...endpoint, ...io });
      const result = await downloadAxlToolkit({
        ...endpoint,
        ...io,
        cache: ctx.shared.axl.cache,
        nodeVersion,
        onProgress: throttledProgress(ctx),
      });
      ctx.shared.axl.forget(endpoint);
      return structuredReply({
        host: input.host,
        node_axl_version: nodeVersion,
        cached_versions: result.versions,
        all_cached_versions: ctx.shared.axl.cache.versions(),
        skipped_entries: result.skipped,
      });
    },
  });
}
