import { checkConnectivityTool } from '../../_shared/tools/check-connectivity.ts';
import { axlProbe, sshProbe } from '../../_shared/tools/probes.ts';
import type { ImpShared } from '../shared.ts';

export default checkConnectivityTool<ImpShared>(
  'imp',
  [axlProbe, sshProbe('imp')],
  'imp_os_trust_fingerprint',
);
