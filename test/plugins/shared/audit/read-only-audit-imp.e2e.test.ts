// The IM and Presence security audit with its credentials stored read-only (issue 23 point 6): see
// test/helpers/audit-read-only.ts.
import { IMP_CHECKLIST } from '../../../../plugins/imp/audit/checklist.ts';
import { describeReadOnlyAudit } from '../../../helpers/audit-read-only.ts';
import { axlAdd, cliRestart, serviceRestart } from '../../../helpers/audit-read-only-writes.ts';

describeReadOnlyAudit(IMP_CHECKLIST, [
  axlAdd('imp', 'addPresenceRedundancyGroup', { presenceRedundancyGroup: { name: 'READ-ONLY-PROBE' } }),
  cliRestart('imp'),
  serviceRestart('imp'),
]);
