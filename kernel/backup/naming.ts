// Backup file names (functional spec, Backup archive):
// backup_<YYYYMM>_<hostname>_<YYYYMMDD>_<HHMMSS>.tar.gz.enc, times in UTC, plus a `.sha512` sidecar.

export const BACKUP_PREFIX = 'backup_';
export const BACKUP_SUFFIX = '.tar.gz.enc';
export const SIDECAR_SUFFIX = '.sha512';

/** Matches a backup file name; groups: month, host, date, time. */
export const BACKUP_NAME = /^backup_(\d{6})_([A-Za-z0-9.-]+)_(\d{8})_(\d{6})\.tar\.gz\.enc$/;

export interface BackupName {
  /** `<YYYYMM>_<hostname>_<YYYYMMDD>_<HHMMSS>`: names the `restore_<id>/` folder. */
  id: string;
  file: string;
  hostname: string;
  /** When the backup was made (second precision, UTC). */
  createdAt: Date;
}

/**
 * The host name as it may appear in a name: `_` separates the fields, so it and anything a file name
 * should not carry become `-`. A host name never has `_` in practice; this keeps parsing unambiguous.
 */
export function safeHostname(hostname: string): string {
  const cleaned = hostname.replace(/[^A-Za-z0-9.-]/g, '-').replace(/^[.-]+/, '');
  return cleaned.length > 0 ? cleaned.slice(0, 64) : 'host';
}

export function backupName(at: Date, hostname: string): BackupName {
  const iso = at.toISOString(); // 2025-01-15T10:30:00.000Z
  const ymd = iso.slice(0, 10).replace(/-/g, '');
  const hms = iso.slice(11, 19).replace(/:/g, '');
  const host = safeHostname(hostname);
  const id = `${ymd.slice(0, 6)}_${host}_${ymd}_${hms}`;
  return {
    id,
    file: `${BACKUP_PREFIX}${id}${BACKUP_SUFFIX}`,
    hostname: host,
    createdAt: new Date(Math.floor(at.getTime() / 1000) * 1000),
  };
}

/** Parses a backup file name (no directory); undefined when it is not one. */
export function parseBackupName(file: string): BackupName | undefined {
  const m = BACKUP_NAME.exec(file);
  if (!m) return undefined;
  const [, month, host, ymd, hms] = m as unknown as [string, string, string, string, string];
  if (!ymd.startsWith(month)) return undefined;
  const createdAt = new Date(
    Date.UTC(
      Number(ymd.slice(0, 4)),
      Number(ymd.slice(4, 6)) - 1,
      Number(ymd.slice(6, 8)),
      Number(hms.slice(0, 2)),
      Number(hms.slice(2, 4)),
      Number(hms.slice(4, 6)),
    ),
  );
  if (Number.isNaN(createdAt.getTime())) return undefined;
  return { id: `${month}_${host}_${ymd}_${hms}`, file, hostname: host, createdAt };
}

export function sidecarOf(file: string): string {
  return `${file}${SIDECAR_SUFFIX}`;
}
