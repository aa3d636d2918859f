import { osRunCommandTool } from '../../_shared/tools/os-run-command.ts';

export default osRunCommandTool('imp', 'imp_os_trust_fingerprint');
