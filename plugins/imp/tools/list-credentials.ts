import { listCredentialsTool } from '../../_shared/tools/list-credentials.ts';

export default listCredentialsTool('imp', 'AXL and OS');
