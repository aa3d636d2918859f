import { updateCredentialsTool } from '../../_shared/tools/update-credentials.ts';
import { CUCM_CREDENTIALS } from '../shared.ts';

export default updateCredentialsTool({ ...CUCM_CREDENTIALS, kind: 'axl' });
