import { checkConnectivityTool } from '../../_shared/tools/check-connectivity.ts';
import { axlProbe, sshProbe } from '../../_shared/tools/probes.ts';
import type { CucmShared } from '../shared.ts';

export default checkConnectivityTool<CucmShared>(
  'cucm',
  [
    axlProbe,
    { service: 'ris', run: (host, ctx) => ctx.shared.ris.probe(ctx.vault, host, ctx.signal) },
    sshProbe('cucm'),
  ],
  'cucm_os_trust_fingerprint',
);
