// Finds every *.test.ts below test/ (or below the paths given) and runs them with node's test runner.
// Node 20's --test does not expand globs for TypeScript files, so the list is built here.
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = join(import.meta.dirname, '..');

function collect(path: string, out: string[]): void {
  const st = statSync(path);
  if (st.isFile()) {
    if (path.endsWith('.test.ts')) out.push(path);
    return;
  }
  for (const entry of readdirSync(path).sort()) {
    if (entry === 'node_modules' || entry.startsWith('.')) continue;
    collect(join(path, entry), out);
  }
}

const targets = process.argv.slice(2);
const files: string[] = [];
for (const t of targets.length > 0 ? targets : [join(root, 'test')]) collect(t, files);
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}

const concurrency = process.env.TEST_CONCURRENCY ?? '2';
const child = spawn(
  process.execPath,
  [
    '--import',
    'tsx',
    '--test',
    `--test-concurrency=${concurrency}`,
    '--test-reporter=spec',
    ...files.map((f) => relative(process.cwd(), f)),
  ],
  { stdio: 'inherit' },
);
const forward = (sig: NodeJS.Signals): void => {
  child.kill(sig);
};
process.on('SIGINT', forward);
process.on('SIGTERM', forward);
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
