import { readdirSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { StatePaths } from '../paths.ts';

/** `.<name>.<pid>.<12 hex>.tmp`: the temporary file of writeFileAtomic. */
const ATOMIC_TEMPORARY = /^\..+\.(\d+)\.[0-9a-f]{12}\.tmp$/;

/**
 * Whether the process `pid` still runs. A pid held by another user's process (EPERM) counts as
 * running: it may be anything, so what it named is left alone.
 */
export function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the temporary files of atomic writes that a crash interrupted (a SIGKILL between the write
 * and the rename), in the state folders the server writes: without this, every crash could leave one
 * more. A file is removed when its writer is gone. This process's own pid counts as gone too: its
 * atomic writes are synchronous, so none of them is under way while this runs, and a file with its pid
 * is from an earlier life under the same pid (a container restarts with the same pid). Another live
 * process's files (a CLI command writing beside the server) stay. Returns what was removed, relative
 * to the state directory.
 */
export function removeInterruptedWrites(paths: StatePaths): string[] {
  const removed: string[] = [];
  const sweep = (dir: string, depth: number): void => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return; // not there (yet)
    }
    for (const e of entries) {
      const path = join(dir, e.name);
      if (e.isDirectory()) {
        if (depth > 0) sweep(path, depth - 1);
        continue;
      }
      const m = ATOMIC_TEMPORARY.exec(e.name);
      if (!e.isFile() || !m) continue;
      const pid = Number(m[1]);
      if (pid !== process.pid && processRuns(pid)) continue;
      rmSync(path, { force: true });
      removed.push(relative(paths.root, path));
    }
  };
  // The state directory itself (files only: by default it is the project root), then each state folder.
  sweep(paths.root, 0);
  for (const [dir, depth] of [
    [paths.secrets, 1],
    [paths.clients, 3],
    [paths.profiles, 0],
    [paths.reports, 2],
    [paths.changes, 0],
    [paths.schemaCache, 4],
  ] as const)
    sweep(dir, depth);
  return removed;
}
