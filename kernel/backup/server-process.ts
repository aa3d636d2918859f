// Finding and stopping the running server for an in-place restore. The server writes STATE_DIR/server.pid
// when its start is complete and removes it when it stops. The file records the process start time (Linux
// /proc), so a stale file whose pid now belongs to another process is recognised as stale. Without a
// usable file, a scan of /proc looks for a `kernel/main.ts` process serving this state directory.

import { existsSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { PACKAGE_VERSION } from '../paths.ts';
import { writeJsonAtomic } from '../store/atomic-file.ts';
import { BackupError } from './errors.ts';

export const PID_FILE = 'server.pid';

interface PidRecord {
  pid: number;
  /** Field 22 of /proc/<pid>/stat (start time in clock ticks since boot); null off Linux. */
  start_ticks: string | null;
  started_at: string;
  state_dir: string;
  version: string;
}

export interface ServerProcess {
  pid: number;
  /** How it was found. */
  via: 'pid-file' | 'process-scan';
}

export function writePidFile(stateDir: string): void {
  const record: PidRecord = {
    pid: process.pid,
    start_ticks: startTicks(process.pid),
    started_at: new Date().toISOString(),
    state_dir: resolve(stateDir),
    version: PACKAGE_VERSION,
  };
  writeJsonAtomic(join(stateDir, PID_FILE), record, 0o644);
}

/** Removes the pid file if it is this process's (an in-process test server never removes another's). */
export function removePidFile(stateDir: string): void {
  const rec = readPidFile(stateDir);
  if (rec?.pid === process.pid) rmSync(join(stateDir, PID_FILE), { force: true });
}

/** The server running on `stateDir`, or undefined when none is. */
export function findRunningServer(stateDir: string): ServerProcess | undefined {
  const rec = readPidFile(stateDir);
  if (rec && rec.pid !== process.pid && isAlive(rec.pid, rec.start_ticks))
    return { pid: rec.pid, via: 'pid-file' };
  return scanProcesses(resolve(stateDir));
}

/**
 * Sends SIGTERM and waits until the process has exited (its clean shutdown: watchdogs stopped, open
 * requests finished, SERVER audit record written). SERVER_STOP_TIMEOUT when it outlives `timeoutMs`.
 */
export async function stopServer(p: ServerProcess, timeoutMs: number, pollMs = 100): Promise<void> {
  const ticks = startTicks(p.pid);
  try {
    process.kill(p.pid, 'SIGTERM');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ESRCH') return;
    throw new BackupError(
      'SERVER_RUNNING',
      code === 'EPERM'
        ? `the server (pid ${p.pid}) belongs to another user: run the restore as that user (or root)`
        : `could not signal the server (pid ${p.pid}): ${(err as Error).message}`,
    );
  }
  const deadline = Date.now() + timeoutMs;
  while (isAlive(p.pid, ticks)) {
    if (Date.now() > deadline) {
      throw new BackupError(
        'SERVER_STOP_TIMEOUT',
        `the server (pid ${p.pid}) did not stop within ${Math.round(timeoutMs / 1000)} s after SIGTERM; nothing was restored`,
      );
    }
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

function readPidFile(stateDir: string): PidRecord | undefined {
  const path = join(stateDir, PID_FILE);
  if (!existsSync(path)) return undefined;
  try {
    const v = JSON.parse(readFileSync(path, 'utf8')) as Partial<PidRecord>;
    if (typeof v.pid !== 'number' || !Number.isInteger(v.pid) || v.pid <= 0) return undefined;
    return {
      pid: v.pid,
      start_ticks: typeof v.start_ticks === 'string' ? v.start_ticks : null,
      started_at: String(v.started_at ?? ''),
      state_dir: String(v.state_dir ?? ''),
      version: String(v.version ?? ''),
    };
  } catch {
    return undefined; // a damaged pid file says nothing; the process scan still runs
  }
}

/** Alive, not a zombie, and (when known) still the process that started at `ticks`. */
function isAlive(pid: number, ticks: string | null): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const stat = procStat(pid);
  if (stat === undefined) return !existsSync('/proc/self/stat'); // no /proc: signal 0 is all we know
  if (stat.state === 'Z' || stat.state === 'X') return false;
  return ticks === null || stat.startTicks === ticks;
}

function startTicks(pid: number): string | null {
  return procStat(pid)?.startTicks ?? null;
}

function procStat(pid: number): { state: string; startTicks: string } | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // "pid (comm) state ppid ..."; comm may hold spaces and parentheses, so split after the last ")".
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const state = fields[0];
  const ticks = fields[19]; // field 22 overall: starttime
  return state !== undefined && ticks !== undefined ? { state, startTicks: ticks } : undefined;
}

/** A `node ... kernel/main.ts` process whose state directory is `stateDir` (Linux only). */
function scanProcesses(stateDir: string): ServerProcess | undefined {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return undefined;
  }
  for (const d of pids) {
    const pid = Number(d);
    if (pid === process.pid) continue;
    let argv: string[];
    let cwd: string;
    try {
      argv = readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0');
      cwd = readlinkSync(`/proc/${d}/cwd`);
    } catch {
      continue;
    }
    const script = argv.find((a) => /(^|\/)kernel\/main\.ts$/.test(a));
    if (!script || !isAlive(pid, null)) continue;
    let environ: string[];
    try {
      environ = readFileSync(`/proc/${d}/environ`, 'utf8').split('\0');
    } catch {
      // Another user's process (unreadable environment): not one this user could stop anyway.
      continue;
    }
    const stateEnv = environ
      .find((e) => e.startsWith('STATE_DIR='))
      ?.slice('STATE_DIR='.length)
      .trim();
    const serves = stateEnv ? resolve(cwd, stateEnv) : dirname(dirname(resolve(cwd, script)));
    if (serves === stateDir) return { pid, via: 'process-scan' };
  }
  return undefined;
}
