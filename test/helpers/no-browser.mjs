// Preloaded (`node --import`) into an npm-installed MCP client a test runs, so that it can never start a
// browser or any other program on this machine: an OAuth fallback (mcp-remote on a 401) opens the
// authorization URL with `open`/xdg-open. Every child_process entry point is replaced; a program whose
// name is in UCMCP_SPAWN_ALLOW (comma-separated basenames, e.g. the `node` and `sh` that `npx` needs)
// still runs, anything else is refused with an error and recorded, one line each, in UCMCP_SPAWN_LOG.
import childProcess from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { basename } from 'node:path';

const allowed = new Set(
  (process.env.UCMCP_SPAWN_ALLOW ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);
const log = process.env.UCMCP_SPAWN_LOG;

function guard(name, original) {
  return function guarded(command, ...rest) {
    const program = String(command);
    // exec/execSync take a whole shell line: judge its first word.
    const word = name.startsWith('exec') && !name.startsWith('execFile') ? program.split(/\s+/)[0] : program;
    if (allowed.has(basename(word)) || word === process.execPath)
      return original.call(this, command, ...rest);
    const args = Array.isArray(rest[0]) ? rest[0].map(String) : [];
    if (log) appendFileSync(log, `${JSON.stringify({ via: name, program, args })}\n`);
    throw Object.assign(new Error(`spawning ${program} is blocked in this test`), { code: 'EACCES' });
  };
}

for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork']) {
  childProcess[name] = guard(name, childProcess[name]);
}
// Named ESM imports (`import { spawn } from 'child_process'`) see the replacements too.
syncBuiltinESMExports();
