import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
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
 * Keeps the newest `keep` backups (each with its sidecar) and deletes the older ones, plus sidecars
 * whose archive is gone and temporary files left by a crash. Only names this server writes are touched:
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
  if (!existsSync(dir)) return removed;
  // Leftovers are only removed once old: a backup being written right now (another process) has a
  // fresh temporary file, and its sidecar exists a moment before the archive is renamed beside it.
  for (const f of readdirSync(dir)) {
    const path = join(dir, f);
    const orphanSidecar =
      f.endsWith(SIDECAR_SUFFIX) &&
      parseBackupName(f.slice(0, -SIDECAR_SUFFIX.length)) !== undefined &&
      !existsSync(path.slice(0, -SIDECAR_SUFFIX.length));
    const leftoverTmp = f.startsWith('.backup_') && f.endsWith('.tmp');
    if (!orphanSidecar && !leftoverTmp) continue;
    try {
      if (now - statSync(path).mtimeMs > STALE_MS) rmSync(path, { force: true });
    } catch {
      // gone already
    }
  }
  return removed;
}
