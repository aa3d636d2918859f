import { drfStatusTool } from '../../_shared/tools/drf-status.ts';

export default drfStatusTool('cucm', 'cucm_os_trust_fingerprint');
