import { traceLevelTool } from '../../_shared/tools/trace-level.ts';

export default traceLevelTool('cucm', 'cucm_os_trust_fingerprint');
