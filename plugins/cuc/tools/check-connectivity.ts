import { checkConnectivityTool } from '../../_shared/tools/check-connectivity.ts';
import { sshProbe } from '../../_shared/tools/probes.ts';
import type { CucShared } from '../shared.ts';

export default checkConnectivityTool<CucShared>(
  'cuc',
  [
    { service: 'cupi', run: (host, ctx) => ctx.shared.cupi.probe(ctx.vault, host, ctx.signal) },
    sshProbe('cuc'),
  ],
  'cuc_os_trust_fingerprint',
);
