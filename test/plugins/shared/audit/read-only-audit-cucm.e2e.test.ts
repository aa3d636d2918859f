// The CUCM security audit with its credentials stored read-only (issue 23 point 6): see
// test/helpers/audit-read-only.ts.
import { CUCM_CHECKLIST } from '../../../../plugins/cucm/audit/checklist.ts';
import { describeReadOnlyAudit } from '../../../helpers/audit-read-only.ts';
import { axlAdd, cliRestart, serviceRestart } from '../../../helpers/audit-read-only-writes.ts';

describeReadOnlyAudit(CUCM_CHECKLIST, [
  axlAdd('cucm', 'addRoutePartition', { routePartition: { name: 'READ-ONLY-PROBE' } }),
  cliRestart('cucm'),
  serviceRestart('cucm'),
]);
