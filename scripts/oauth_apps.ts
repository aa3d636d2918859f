// oauth_apps: entry point to the kernel CLI command of that name (docs/auth.md, "Applications").
import { runCommand } from '../kernel/cli/run-script.ts';

await runCommand('oauth_apps');
