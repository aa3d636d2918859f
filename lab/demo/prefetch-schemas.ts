// Fills the server's schema cache from the lab before the server starts, as an admin would with
// cucm_download_axl_toolkit, imp_download_axl_toolkit and cucm_download_ris_toolkit: so that every demo client (the auditor and the operator may not download)
// can use the AXL tools from the first call. The same code paths as the tools, with the lab's demo login.
import { statePaths } from '../../kernel/paths.ts';
import { AxlSchemaCache } from '../../plugins/_shared/axl/schema-cache.ts';
import { downloadAxlToolkit } from '../../plugins/_shared/axl/toolkit.ts';
import { productSchemaRoot } from '../../plugins/_shared/tools/create-state.ts';
import { RisService } from '../../plugins/cucm/ris/ris-service.ts';
import { labTlsPin } from '../tls/pins.ts';
import type { LabInfo } from '../types.ts';

export async function prefetchSchemas(stateDir: string, lab: LabInfo): Promise<string[]> {
  const root = statePaths(stateDir).schemaCache;
  const done: string[] = [];
  for (const node of lab.nodes) {
    if ((node.product !== 'cucm' && node.product !== 'imp') || !node.credentials.axl || !node.ports.https)
      continue;
    const cache = new AxlSchemaCache(
      productSchemaRoot(root, node.product),
      `${node.product}_download_axl_toolkit`,
    );
    const endpoint = {
      host: node.host,
      port: node.ports.https,
      username: node.credentials.axl.user,
      password: node.credentials.axl.password,
      ...labTlsPin(lab, node),
    };
    if (node.product === 'cucm') {
      const ris = new RisService({
        schemaCache: productSchemaRoot(root, 'cucm'),
        downloadTool: 'cucm_download_ris_toolkit',
      });
      try {
        await ris.downloadFrom(endpoint);
        done.push('cucm RisPort70');
      } finally {
        ris.close();
      }
    }
    const r = await downloadAxlToolkit({
      ...endpoint,
      cache,
      nodeVersion: node.version?.split('.').slice(0, 2).join('.') ?? '15.0',
    }).catch((err: unknown) => {
      // IM&P's toolkit may be absent from the lab; the tool then says so to whoever calls it.
      if (node.product === 'imp') return { versions: [] as string[] };
      throw err;
    });
    done.push(...r.versions.map((v) => `${node.product} AXL ${v}`));
  }
  return done;
}
