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

// A test that bounds a latency (`*.alone.test.ts`) runs after the others, by itself: beside another
// test file on a 2-core machine it would measure the neighbour, not the server.
const alone = files.filter((f) => f.endsWith('.alone.test.ts'));
const together = files.filter((f) => !f.endsWith('.alone.test.ts'));

const concurrency = process.env.TEST_CONCURRENCY ?? '2';
let current: ReturnType<typeof spawn> | undefined;

function runFiles(list: string[], parallel: string): Promise<number> {
  if (list.length === 0) return Promise.resolve(0);
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--test',
        `--test-concurrency=${parallel}`,
        '--test-reporter=spec',
        ...list.map((f) => relative(process.cwd(), f)),
      ],
      { stdio: 'inherit' },
    );
    current = child;
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

let stopping = false;
const forward = (sig: NodeJS.Signals): void => {
  stopping = true;
  current?.kill(sig);
};
process.on('SIGINT', forward);
process.on('SIGTERM', forward);

const first = await runFiles(together, concurrency);
const second = stopping ? 1 : await runFiles(alone, '1');
process.exit(first !== 0 ? first : second);
