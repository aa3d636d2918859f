// The CUCM security audit against random sets of the lab's weaknesses and each weakness alone: the
// findings are exactly the seeded checks, nothing unjudged (test/helpers/audit-combinations-suite.ts).
import { CUCM_CHECKLIST } from '../../../../plugins/cucm/audit/checklist.ts';
import { describeCombinations } from '../../../helpers/audit-combinations-suite.ts';

describeCombinations(CUCM_CHECKLIST);
