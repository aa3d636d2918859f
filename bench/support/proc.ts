// Process plumbing shared by the benchmarks: each server and each client runs in a process of its own
// (so that no two share an event loop), is read from /proc (Linux), and a child hands its figures back
// as one machine-readable line.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { serverLoaderArgs } from '../../kernel/loader/index.ts';
import { PROJECT_ROOT } from '../../kernel/paths.ts';

/** Prefix of the one line a benchmark child prints its figures on (JSON after it). */
export const RESULT_PREFIX = 'BENCH-RESULT ';

export function printResult(value: unknown): void {
  process.stdout.write(`${RESULT_PREFIX}${JSON.stringify(value)}\n`);
}

/** An environment for a child: the caller's, without what a test runner or NODE_OPTIONS would add. */
export function childEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = { ...process.env, ...extra };
  delete env.NODE_TEST_CONTEXT;
  delete env.NODE_OPTIONS;
  return env;
}

/** `node --import tsx <file> ...args`, stdout piped, stderr kept (last 4 KB) for error messages. */
export function spawnTsx(
  file: string,
  args: string[] = [],
  env: NodeJS.ProcessEnv = childEnv(),
  nodeArgs: string[] = [],
): ChildProcess & { errTail: () => string } {
  return spawnNode([...nodeArgs, '--import', 'tsx', join(PROJECT_ROOT, file), ...args], env);
}

/** A server entry run as `npm start` runs kernel/main.ts: on the server's loader (kernel/loader). */
export function spawnOnServerLoader(
  file: string,
  env: NodeJS.ProcessEnv = childEnv(),
): ChildProcess & { errTail: () => string } {
  return spawnNode(serverLoaderArgs(join(PROJECT_ROOT, file)), env);
}

function spawnNode(argv: string[], env: NodeJS.ProcessEnv): ChildProcess & { errTail: () => string } {
  const child = spawn(process.execPath, argv, {
    cwd: PROJECT_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr?.on('data', (d: Buffer) => {
    err = (err + d.toString()).slice(-4000);
  });
  return Object.assign(child, { errTail: () => err });
}

/** Resolves with what follows the first stdout line matching `pattern`; rejects if the child exits first. */
export function waitForLine(
  child: ChildProcess & { errTail?: () => string },
  pattern: RegExp,
): Promise<string> {
  return new Promise((resolve, reject) => {
    let buf = '';
    const onData = (d: Buffer): void => {
      buf += d.toString();
      const m = pattern.exec(buf);
      if (m) {
        child.stdout?.off('data', onData);
        resolve(m[1] ?? m[0]);
      }
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) =>
      reject(new Error(`child exited (${code}) before ${pattern}: ${child.errTail?.() ?? ''}`)),
    );
  });
}

/** Runs a benchmark child to its end and returns the JSON of its result line. */
export async function runChild<T>(file: string, args: string[], env?: NodeJS.ProcessEnv): Promise<T> {
  const child = spawnTsx(file, args, env);
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  const code = await new Promise<number | null>((r) => child.once('exit', r));
  const line = out.split('\n').find((l) => l.startsWith(RESULT_PREFIX));
  if (code !== 0 || !line) throw new Error(`${file} failed (${code}): ${child.errTail()}`);
  return JSON.parse(line.slice(RESULT_PREFIX.length)) as T;
}

/** SIGTERM, then waits for the exit (SIGKILL after 10 s). */
export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** CPU time (user + system, all threads) a process has used, in microseconds. */
export function cpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / 100; // USER_HZ is 100 on Linux
}

/** Resident set size (VmRSS) of one process, in MB. */
export function rssMb(pid: number): number {
  const m = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no VmRSS for process ${pid}`);
  return Number(m[1]) / 1024;
}

/** The process and all its descendants (Chromium and its helpers under the server). */
export function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const ppid = Number(readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]?.split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {
      // The process ended while the tree was read.
    }
  }
  const out: number[] = [];
  const walk = (p: number): void => {
    out.push(p);
    for (const c of children.get(p) ?? []) walk(c);
  };
  walk(pid);
  return out;
}

/** Proportional set size of a process and its descendants, in MB (shared pages counted once overall). */
export function treePssMb(pid: number): { pssMb: number; processes: number } {
  let kb = 0;
  let processes = 0;
  for (const p of processTree(pid)) {
    try {
      const m = /^Pss:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${p}/smaps_rollup`, 'utf8'));
      if (m) {
        kb += Number(m[1]);
        processes++;
      }
    } catch {
      // Ended meanwhile: it holds nothing any more.
    }
  }
  return { pssMb: kb / 1024, processes };
}

export const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
