import { traceLevelTool } from '../../_shared/tools/trace-level.ts';

export default traceLevelTool('imp', 'imp_os_trust_fingerprint');
