import { certListTool } from '../../_shared/tools/cert-list.ts';

export default certListTool('cucm', 'cucm_os_trust_fingerprint');
