import { storeCredentialsTool } from '../../_shared/tools/store-credentials.ts';
import { CUCM_CREDENTIALS } from '../shared.ts';

export default storeCredentialsTool({ ...CUCM_CREDENTIALS, kind: 'axl' });
