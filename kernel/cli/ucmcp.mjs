#!/usr/bin/env node
// The `ucmcp` command (package.json "bin", so also `npx ucmcp`): the kernel CLI of kernel/cli/main.ts.
// The project runs its TypeScript through tsx at run time, so this plain-JavaScript entry registers
// tsx's loader first (what `node --import tsx` does), then hands over to main.ts with the same argv.
import { register } from 'tsx/esm/api';

register();
await import('./main.ts');
