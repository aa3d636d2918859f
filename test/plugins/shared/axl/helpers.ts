// A lab CUCM with a filled schema cache, for the AXL client tests.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Lab, LabNodeInfo, LabOptions } from '../../../../lab/index.ts';
import { labNode, labTlsPin, startLab } from '../../../../lab/index.ts';
import { AxlSchemaCache } from '../../../../plugins/_shared/axl/schema-cache.ts';
import type { NodeEndpoint } from '../../../../plugins/_shared/axl/transport.ts';

// The lab CA and node keys are reused across runs (generating them takes seconds), as the lab tests do.
const labStateDir = resolve(import.meta.dirname, '..', '..', '..', '..', '.tmp', 'lab-state');

export const FAST_RETRY = { backoffMs: [10, 20, 40] };

export interface AxlLab {
  lab: Lab;
  cucm: LabNodeInfo;
  node: NodeEndpoint;
  dir: string;
  cache: AxlSchemaCache;
  stop(): Promise<void>;
}

/** The lab CUCM and its AXL (and RisPort70) endpoint: loopback, the AXL login, its certificate pinned. */
export function labCucmEndpoint(lab: Lab): { cucm: LabNodeInfo; node: NodeEndpoint } {
  const cucm = labNode(lab.info, 'cucm');
  const creds = cucm.credentials.axl;
  if (!creds) throw new Error('the lab CUCM has no AXL credentials');
  return {
    cucm,
    node: {
      host: '127.0.0.1',
      port: cucm.ports.https as number,
      username: creds.user,
      password: creds.password,
      ...labTlsPin(lab.info, cucm),
    },
  };
}

export async function startAxlLab(options: LabOptions = {}): Promise<AxlLab> {
  const dir = mkdtempSync(join(tmpdir(), 'axl-test-'));
  const lab = await startLab({ stateDir: labStateDir, loginDelayMs: 50, ...options });
  const { cucm, node } = labCucmEndpoint(lab);
  const cache = new AxlSchemaCache(join(dir, 'schema'), 'cucm_download_axl_toolkit');
  return {
    lab,
    cucm,
    node,
    dir,
    cache,
    stop: async () => {
      await lab.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
