// The IMP security audit against random sets of the lab's weaknesses and each weakness alone: the
// findings are exactly the seeded checks, nothing unjudged (test/helpers/audit-combinations-suite.ts).
import { IMP_CHECKLIST } from '../../../../plugins/imp/audit/checklist.ts';
import { describeCombinations } from '../../../helpers/audit-combinations-suite.ts';

describeCombinations(IMP_CHECKLIST);
