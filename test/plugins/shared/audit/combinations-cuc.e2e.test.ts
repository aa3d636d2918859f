// The CUC security audit against random sets of the lab's weaknesses and each weakness alone: the
// findings are exactly the seeded checks, nothing unjudged (test/helpers/audit-combinations-suite.ts).
import { CUC_CHECKLIST } from '../../../../plugins/cuc/audit/checklist.ts';
import { describeCombinations } from '../../../helpers/audit-combinations-suite.ts';

describeCombinations(CUC_CHECKLIST);
