import { drfStatusTool } from '../../_shared/tools/drf-status.ts';

export default drfStatusTool('imp', 'imp_os_trust_fingerprint');
