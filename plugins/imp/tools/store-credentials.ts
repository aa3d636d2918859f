import { storeCredentialsTool } from '../../_shared/tools/store-credentials.ts';
import { IMP_CREDENTIALS } from '../shared.ts';

export default storeCredentialsTool({ ...IMP_CREDENTIALS, kind: 'axl' });
