import { osRunCommandTool } from '../../_shared/tools/os-run-command.ts';

export default osRunCommandTool('cucm', 'cucm_os_trust_fingerprint');
