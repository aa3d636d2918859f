// revoke_startup_token: entry point to the kernel CLI command of that name (docs/auth.md).
import { runCommand } from '../kernel/cli/run-script.ts';

await runCommand('revoke_startup_token');
