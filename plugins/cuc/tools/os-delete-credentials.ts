import { deleteCredentialsTool } from '../../_shared/tools/delete-credentials.ts';
import { CUC_CREDENTIALS } from '../shared.ts';

export default deleteCredentialsTool({ ...CUC_CREDENTIALS, kind: 'os' });
