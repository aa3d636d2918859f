import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../../kernel/paths.ts';

/** The suite's CLI (`@modelcontextprotocol/conformance`, a devDependency). */
export const SUITE_ENTRY = join(
  PROJECT_ROOT,
  'node_modules',
  '@modelcontextprotocol',
  'conformance',
  'dist',
  'index.js',
);
const PRELOAD = join(import.meta.dirname, 'bearer-preload.mjs');

export interface Check {
  id: string;
  name: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'SKIPPED' | 'INFO';
  errorMessage?: string;
}

export interface ScenarioRun {
  scenario: string;
  /** The revision it ran at (its wire: stateful through 2025-11-25, stateless for 2026-07-28). */
  revision: string;
  checks: Check[];
}

export interface SuiteProcess {
  node: string;
  /** Files the suite's process trusts (NODE_EXTRA_CA_CERTS): the server's CA, nothing disabled. */
  caFile: string;
  /** Origin that gets the bearer token, and the file holding it. */
  bearer?: { origin: string; tokenFile: string };
  /** Where each scenario's checks.json lands, and the suite's own output (suite-<label>.log). */
  outDir: string;
  label: string;
  /** Called with each line the suite prints (the authorization scenarios wait on one). */
  onLine?: (line: string) => void;
  timeoutMs: number;
  /** Stops the suite early (a scenario waiting for something that will not come). */
  signal?: AbortSignal;
}

/** Runs the suite's CLI once; resolves with its exit code once it has exited (or been stopped at the timeout). */
export function runSuite(args: string[], p: SuiteProcess): Promise<number | null> {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_EXTRA_CA_CERTS: p.caFile, NO_COLOR: '1' };
  delete env.NODE_OPTIONS;
  const preload: string[] = [];
  if (p.bearer) {
    env.CONFORMANCE_SERVER_ORIGIN = p.bearer.origin;
    env.CONFORMANCE_TOKEN_FILE = p.bearer.tokenFile;
    env.CONFORMANCE_SUITE_ENTRY = SUITE_ENTRY;
    preload.push('--import', PRELOAD);
  }
  return new Promise((resolve, reject) => {
    const child = spawn(p.node, [...preload, SUITE_ENTRY, ...args, '-o', p.outDir], {
      env,
      cwd: p.outDir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let log = '';
    let pending = '';
    const take = (chunk: Buffer): void => {
      const text = chunk.toString('utf8');
      log += text;
      pending += text;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) p.onLine?.(line);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    const stop = (): void => {
      child.kill('SIGKILL');
    };
    const timer = setTimeout(stop, p.timeoutMs);
    p.signal?.addEventListener('abort', stop, { once: true });
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      p.signal?.removeEventListener('abort', stop);
      writeFileSync(join(p.outDir, `suite-${p.label}.log`), log);
      resolve(code);
    });
  });
}

/** Every scenario the suite wrote below `dir` (`<prefix>-<scenario>-<timestamp>/checks.json`). */
export function readRuns(dir: string, prefix: string, revision: string): ScenarioRun[] {
  if (!existsSync(dir)) return [];
  const name = new RegExp(`^${prefix}-(.+)-\\d{4}-\\d{2}-\\d{2}T\\d{2}-\\d{2}-\\d{2}-\\d{3}Z$`);
  return readdirSync(dir)
    .sort()
    .flatMap((entry) => {
      const m = name.exec(entry);
      const file = join(dir, entry, 'checks.json');
      if (!m || !existsSync(file)) return [];
      return [
        { scenario: m[1] as string, revision, checks: JSON.parse(readFileSync(file, 'utf8')) as Check[] },
      ];
    });
}
