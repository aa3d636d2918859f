import { deleteCredentialsTool } from '../../_shared/tools/delete-credentials.ts';
import { IMP_CREDENTIALS } from '../shared.ts';

export default deleteCredentialsTool({ ...IMP_CREDENTIALS, kind: 'os' });
