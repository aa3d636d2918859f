import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { processRuns } from '../store/leftovers.ts';
import { ARCHIVES_BEING_WRITTEN, tempArchiveWriter } from './create-backup.ts';
import { parseBackupName, SIDECAR_SUFFIX, sidecarOf, type BackupName } from './naming.ts';

/** A temporary file or lone sidecar this old is left from a crashed run (a backup takes minutes at most). */
const STALE_MS = 6 * 3_600_000;

/** The backups in a directory, newest first (by the time in their names, not the file mtime). */
export function listBackups(dir: string): BackupName[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .map((f) => parseBackupName(f))
    .filter((b): b is BackupName => b !== undefined)
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.file < b.file ? 1 : -1));
}

/**
 * Keeps the newest `keep` backups (each with its sidecar) and deletes the older ones, plus what crashed
 * runs left (see removeLeftovers). Only names this server writes are touched:
 * anything else an operator puts in backups/ stays. Returns the archive names deleted.
 */
export function pruneBackups(dir: string, keep: number, now = Date.now()): string[] {
  const all = listBackups(dir);
  const removed: string[] = [];
  for (const old of all.slice(Math.max(1, keep))) {
    rmSync(join(dir, old.file), { force: true });
    rmSync(join(dir, sidecarOf(old.file)), { force: true });
    removed.push(old.file);
  }
  removeLeftovers(dir, now);
  return removed;
}

/**
 * Removes what crashed runs left in `dir`: temporary archives whose writer is dead (at once: each is as
 * big as a backup, and a server that crash-loops would otherwise fill the disk with them), and, once
 * old, temporary archives of a live pid (the pid may have been reused) and sidecars whose archive is
 * gone (a backup being written right now has its sidecar a moment before its archive is renamed).
 * Runs before every backup and after it.
 */
export function removeLeftovers(dir: string, now = Date.now()): void {
  if (!existsSync(dir)) return;
  for (const f of readdirSync(dir)) {
    const path = join(dir, f);
    const orphanSidecar =
      f.endsWith(SIDECAR_SUFFIX) &&
      parseBackupName(f.slice(0, -SIDECAR_SUFFIX.length)) !== undefined &&
      !existsSync(path.slice(0, -SIDECAR_SUFFIX.length));
    const leftoverTmp = f.startsWith('.backup_') && f.endsWith('.tmp');
    if (!orphanSidecar && !leftoverTmp) continue;
    try {
      const dead = leftoverTmp && !writerRuns(path);
      if (dead || now - statSync(path).mtimeMs > STALE_MS) rmSync(path, { force: true });
    } catch {
      // gone already
    }
  }
}

/**
 * Whether the process that named a temporary file of a backup may still be writing it. This process's
 * own sidecar writes are synchronous, so only its archives can be under way.
 */
function writerRuns(path: string): boolean {
  const pid = tempArchiveWriter(path);
  if (pid === undefined) return true;
  if (pid === process.pid) return ARCHIVES_BEING_WRITTEN.has(path);
  return processRuns(pid);
}
