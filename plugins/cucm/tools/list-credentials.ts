import { listCredentialsTool } from '../../_shared/tools/list-credentials.ts';

export default listCredentialsTool('cucm', 'AXL, OS and phone');
