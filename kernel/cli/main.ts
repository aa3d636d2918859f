// The kernel CLI: `node --import tsx kernel/cli/main.ts <command> [options]`. Every operator script of
// the spec is a command in kernel/cli/commands/; scripts/<name>.ts are thin entry points to the same.
import { dispatch } from './dispatch.ts';
import { processIo } from './io.ts';
import { exitWith } from './run-script.ts';

await exitWith(await dispatch(process.argv.slice(2), processIo()));
