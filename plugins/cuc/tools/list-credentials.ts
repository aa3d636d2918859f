import { listCredentialsTool } from '../../_shared/tools/list-credentials.ts';

export default listCredentialsTool('cuc', 'CUPI and OS');
