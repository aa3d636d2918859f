import { updateCredentialsTool } from '../../_shared/tools/update-credentials.ts';
import { IMP_CREDENTIALS } from '../shared.ts';

export default updateCredentialsTool({ ...IMP_CREDENTIALS, kind: 'os' });
