import { osRunCommandTool } from '../../_shared/tools/os-run-command.ts';

export default osRunCommandTool('cuc', 'cuc_os_trust_fingerprint');
