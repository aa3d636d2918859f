import { updateCredentialsTool } from '../../_shared/tools/update-credentials.ts';
import { CUC_CREDENTIALS } from '../shared.ts';

export default updateCredentialsTool({ ...CUC_CREDENTIALS, kind: 'cupi' });
