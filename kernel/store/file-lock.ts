import { closeSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { processRuns } from './leftovers.ts';

export interface FileLockOptions {
  /** Longest wait for another holder; past it `busy()` is thrown. Default 12 s (past `staleMs`). */
  waitMs?: number;
  /** A lock file older than this is a crashed holder's and is taken over. Default 10 s. */
  staleMs?: number;
  /** The error thrown when the lock stays held past `waitMs`. */
  busy: () => Error;
}

/**
 * Runs `fn` (synchronous, so it is short) while holding `<path>.lock`, an exclusive-create file every
 * process that changes `path` takes: the server and an operator command then never both read the
 * same version of a file and each write their own change over it, losing the other's. Waiting is
 * asynchronous (the event loop keeps serving). A lock left by a crashed process is taken over at once
 * when it names a process of this host that no longer runs (or this very process: `fn` is synchronous,
 * so a lock of ours outside it is from an earlier life under the same pid), else once it is `staleMs`
 * old: a process of another host or container sharing the directory is never second-guessed.
 */
export async function withFileLock<T>(path: string, fn: () => T, o: FileLockOptions): Promise<T> {
  const lock = `${path}.lock`;
  const deadline = Date.now() + (o.waitMs ?? 12_000);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  for (let delay = 2; ; delay = Math.min(delay * 2, 50)) {
    if (acquire(lock, o.staleMs ?? 10_000)) return holding(lock, fn);
    if (Date.now() >= deadline) throw o.busy();
    await sleep(delay);
  }
}

/**
 * withFileLock for a critical section that callers cannot wait for asynchronously (a trust decision
 * inside a synchronous connection check): the wait blocks this thread, so it is short by default
 * (2 s), for files whose holders keep them for a read and a small write. Several instances sharing
 * the state directory are what it is for; within one process the section is already exclusive.
 */
export function withFileLockSync<T>(path: string, fn: () => T, o: FileLockOptions): T {
  const lock = `${path}.lock`;
  const deadline = Date.now() + (o.waitMs ?? 2000);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let delay = 1; ; delay = Math.min(delay * 2, 20)) {
    if (acquire(lock, o.staleMs ?? 10_000)) return holding(lock, fn);
    if (Date.now() >= deadline) throw o.busy();
    Atomics.wait(pause, 0, 0, delay);
  }
}

/** Takes the lock file if free (or left by a crashed holder); true when this process now holds it. */
function acquire(lock: string, staleMs: number): boolean {
  const fd = tryCreate(lock);
  if (fd !== undefined) {
    try {
      writeSync(fd, `${process.pid}@${hostname()}\n`);
    } finally {
      closeSync(fd);
    }
    return true;
  }
  const stale = staleLock(lock, staleMs);
  // Only that very file: another waiter may have taken it over and made its own meanwhile.
  if (stale !== undefined && inode(lock) === stale) rmSync(lock, { force: true });
  return false;
}

function holding<T>(lock: string, fn: () => T): T {
  try {
    return fn();
  } finally {
    rmSync(lock, { force: true });
  }
}

function tryCreate(lock: string): number | undefined {
  try {
    return openSync(lock, 'wx', 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return undefined;
    throw err;
  }
}

/** The inode of a lock its holder left behind (crashed), or undefined while it may be held. */
function staleLock(lock: string, staleMs: number): bigint | undefined {
  try {
    const st = statSync(lock, { bigint: true });
    if (Date.now() - Number(st.mtimeMs) > staleMs) return st.ino;
    const m = /^(\d+)@(.*)\n$/.exec(readFileSync(lock, 'utf8'));
    if (!m || m[2] !== hostname()) return undefined;
    const pid = Number(m[1]);
    return pid === process.pid || !processRuns(pid) ? st.ino : undefined;
  } catch {
    // Gone between the failed create and now: free, try again.
    return -1n;
  }
}

function inode(path: string): bigint | undefined {
  try {
    return statSync(path, { bigint: true }).ino;
  } catch {
    return undefined;
  }
}
