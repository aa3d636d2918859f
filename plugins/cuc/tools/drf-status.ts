import { drfStatusTool } from '../../_shared/tools/drf-status.ts';

export default drfStatusTool('cuc', 'cuc_os_trust_fingerprint');
