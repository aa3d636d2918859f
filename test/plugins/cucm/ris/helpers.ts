// A lab CUCM and RisService instances pointed at it, for the RisPort70 client tests.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Lab, LabNodeInfo, LabOptions } from '../../../../lab/index.ts';
import { startLab } from '../../../../lab/index.ts';
import type { NodeEndpoint } from '../../../../plugins/_shared/axl/transport.ts';
import type { RisServiceOptions } from '../../../../plugins/cucm/ris/ris-service.ts';
import { RisService } from '../../../../plugins/cucm/ris/ris-service.ts';
import { labCucmEndpoint } from '../../shared/axl/helpers.ts';

// The lab CA and node keys are reused across runs (generating them takes seconds), as the lab tests do.
const labStateDir = resolve(import.meta.dirname, '..', '..', '..', '..', '.tmp', 'lab-state');

export const FAST_RETRY = { backoffMs: [10, 20] };
export const DOWNLOAD_TOOL = 'cucm_download_ris_toolkit';

export interface RisLab {
  lab: Lab;
  cucm: LabNodeInfo;
  node: NodeEndpoint;
  /** A schema cache root (empty until a service downloads into it). */
  dir: string;
  /** A RisService on `dir` with fast retries; options override. */
  service(o?: Partial<RisServiceOptions>): RisService;
  /** A service whose cache already holds the lab's WSDL. */
  ready(o?: Partial<RisServiceOptions>): Promise<RisService>;
  /** RisPort requests the lab received (any status). */
  risRequests(): number;
  stop(): Promise<void>;
}

export async function startRisLab(options: LabOptions = {}): Promise<RisLab> {
  const dir = mkdtempSync(join(tmpdir(), 'ris-test-'));
  const lab = await startLab({ stateDir: labStateDir, loginDelayMs: 50, ...options });
  const { cucm, node } = labCucmEndpoint(lab);
  const services: RisService[] = [];
  const service = (o: Partial<RisServiceOptions> = {}): RisService => {
    const s = new RisService({ schemaCache: dir, downloadTool: DOWNLOAD_TOOL, retry: FAST_RETRY, ...o });
    services.push(s);
    return s;
  };
  return {
    lab,
    cucm,
    node,
    dir,
    service,
    async ready(o) {
      const s = service(o);
      if (!s.schema.has()) await s.downloadFrom(node);
      return s;
    },
    risRequests: () =>
      lab.state.log.requests.filter(
        (r) => r.service === 'ris' && r.operation !== 'wsdl' && r.method === 'POST',
      ).length,
    stop: async () => {
      for (const s of services) s.close();
      await lab.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
