// credentials: entry point to the kernel CLI command of that name (docs/operations.md, "credentials").
import { runCommand } from '../kernel/cli/run-script.ts';

await runCommand('credentials');
