import { storeCredentialsTool } from '../../_shared/tools/store-credentials.ts';
import { CUC_CREDENTIALS } from '../shared.ts';

export default storeCredentialsTool({ ...CUC_CREDENTIALS, kind: 'cupi' });
