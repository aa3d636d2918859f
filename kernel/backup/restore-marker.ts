// `STATE_DIR/.restore-in-progress`: written by `backup_restore --replace` before it stops the server and
// removed when it is done, so that the container entry (kernel/container-entry.ts) does not end the
// container, and with it the restore started by `docker exec`, when the server stops for the restore.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const RESTORE_MARKER = '.restore-in-progress';

export function writeRestoreMarker(stateDir: string): void {
  writeFileSync(join(stateDir, RESTORE_MARKER), `${process.pid}\n`, { mode: 0o600 });
}

export function removeRestoreMarker(stateDir: string): void {
  rmSync(join(stateDir, RESTORE_MARKER), { force: true });
}

/** True while a restore that is still alive holds the marker (a crashed restore's marker is ignored). */
export function restoreInProgress(stateDir: string): boolean {
  const file = join(stateDir, RESTORE_MARKER);
  if (!existsSync(file)) return false;
  const pid = Number(readFileSync(file, 'utf8').trim());
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
