import { traceLevelTool } from '../../_shared/tools/trace-level.ts';

export default traceLevelTool('cuc', 'cuc_os_trust_fingerprint');
