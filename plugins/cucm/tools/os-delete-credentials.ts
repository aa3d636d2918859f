import { deleteCredentialsTool } from '../../_shared/tools/delete-credentials.ts';
import { CUCM_CREDENTIALS } from '../shared.ts';

export default deleteCredentialsTool({ ...CUCM_CREDENTIALS, kind: 'os' });
