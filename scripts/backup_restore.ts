// backup_restore: entry point to the kernel CLI command of that name (docs/operations.md).
import { runCommand } from '../kernel/cli/run-script.ts';

await runCommand('backup_restore');
