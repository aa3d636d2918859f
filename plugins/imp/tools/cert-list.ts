import { certListTool } from '../../_shared/tools/cert-list.ts';

export default certListTool('imp', 'imp_os_trust_fingerprint');
