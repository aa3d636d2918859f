// Fault injection for the crash tests, loaded into the server process with `--import` before
// kernel/main.ts: it SIGKILLs the process at an exact file-system step, so a crash lands between two
// writes however short the window (a random SIGKILL would need luck to hit it).
//
// Counted steps are the ones that change what is on disk for good, on paths matching CRASH_HOOK_MATCH
// (a regular expression; default: below STATE_DIR, logs excluded): rename, link, unlink, rm, copyFile,
// and writes to a file that is not a temporary `*.tmp` (a temporary file is invisible until renamed).
//   CRASH_HOOK_LOG=<file>  appends one line per counted step ("<n> <op> <path>"): how many there are
//   CRASH_HOOK_AT=<n>      SIGKILLs the process just before step n
//   CRASH_HOOK_TORN=1      ...and when step n is a write or copy, performs half of it first (a torn write)
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

const at = Number(process.env.CRASH_HOOK_AT ?? 0);
const logFile = process.env.CRASH_HOOK_LOG ?? '';
const torn = process.env.CRASH_HOOK_TORN === '1';
const stateDir = process.env.STATE_DIR ?? '';
const match = new RegExp(
  process.env.CRASH_HOOK_MATCH ?? `^${stateDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/(?!logs/)`,
);

const original = {
  renameSync: fs.renameSync,
  linkSync: fs.linkSync,
  unlinkSync: fs.unlinkSync,
  rmSync: fs.rmSync,
  copyFileSync: fs.copyFileSync,
  openSync: fs.openSync,
  closeSync: fs.closeSync,
  writeSync: fs.writeSync,
  appendFileSync: fs.appendFileSync,
};
let count = 0;
const fdPaths = new Map<number, string>();

function die(): never {
  process.kill(process.pid, 'SIGKILL');
  // SIGKILL is delivered before the kill() call returns to this thread; never reached.
  throw new Error('unreachable');
}

/** Counts a step on `path`; true when this is the step to crash at. */
function step(op: string, path: string): boolean {
  if (!match.test(path)) return false;
  count++;
  if (logFile) original.appendFileSync(logFile, `${count} ${op} ${path}\n`);
  return count === at;
}

const p = (v: fs.PathLike): string => String(v);

Object.assign(fs, {
  renameSync(from: fs.PathLike, to: fs.PathLike) {
    if (step('rename', p(to))) die();
    return original.renameSync(from, to);
  },
  linkSync(from: fs.PathLike, to: fs.PathLike) {
    if (step('link', p(to))) die();
    return original.linkSync(from, to);
  },
  unlinkSync(path: fs.PathLike) {
    if (step('unlink', p(path))) die();
    return original.unlinkSync(path);
  },
  rmSync(path: fs.PathLike, opts?: fs.RmOptions) {
    if (step('rm', p(path))) {
      // A recursive removal cut midway leaves part of the tree: remove the first half of its files.
      if (torn && opts?.recursive && fs.existsSync(path)) {
        const files = (fs.readdirSync(path, { recursive: true }) as string[])
          .map((f) => `${p(path)}/${f}`)
          .filter((f) => fs.statSync(f).isFile())
          .sort();
        for (const f of files.slice(0, Math.ceil(files.length / 2))) original.unlinkSync(f);
      }
      die();
    }
    return original.rmSync(path, opts);
  },
  copyFileSync(from: fs.PathLike, to: fs.PathLike, mode?: number) {
    if (step('copy', p(to))) {
      if (torn) {
        const data = fs.readFileSync(from);
        fs.writeFileSync(to, data.subarray(0, Math.floor(data.length / 2)));
      }
      die();
    }
    return original.copyFileSync(from, to, mode);
  },
  openSync(path: fs.PathLike, flags?: fs.OpenMode, mode?: fs.Mode) {
    const fd = original.openSync(path, flags ?? 'r', mode);
    fdPaths.set(fd, p(path));
    return fd;
  },
  closeSync(fd: number) {
    fdPaths.delete(fd);
    return original.closeSync(fd);
  },
  writeSync(fd: number, buffer: NodeJS.ArrayBufferView | string, ...rest: unknown[]) {
    const path = fdPaths.get(fd);
    if (path !== undefined && !path.endsWith('.tmp') && step('write', path)) {
      if (torn && typeof buffer !== 'string') {
        const b = Buffer.from(buffer.buffer, buffer.byteOffset, buffer.byteLength);
        const offset = typeof rest[0] === 'number' ? rest[0] : 0;
        const length = typeof rest[1] === 'number' ? rest[1] : b.length - offset;
        original.writeSync(fd, b, offset, Math.max(1, Math.floor(length / 2)));
      }
      die();
    }
    return (original.writeSync as (...a: unknown[]) => number)(fd, buffer, ...rest);
  },
});
syncBuiltinESMExports();
