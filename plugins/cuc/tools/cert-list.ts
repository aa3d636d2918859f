import { certListTool } from '../../_shared/tools/cert-list.ts';

export default certListTool('cuc', 'cuc_os_trust_fingerprint');
