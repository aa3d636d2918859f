import { mkdirSync, rmSync } from 'node:fs';
import { join, posix } from 'node:path';
import { randomBytes } from 'node:crypto';
import { BackupError } from './errors.ts';
import { parseBackupName, sidecarOf } from './naming.ts';
import { connectSftp, type SftpUrl } from './sftp.ts';

export interface RemoteFetch {
  file: string;
  sidecar: string;
  /** Removes the downloaded copies. */
  cleanup(): void;
}

/**
 * Downloads a backup and its sidecar from an SFTP server into a hidden folder of `intoDir` (the state
 * directory: the same disk the restore extracts to). The host key must match the pinned fingerprint.
 */
export async function fetchFromSftp(
  url: SftpUrl,
  o: { intoDir: string; user: string; port: number; hostKey: string; password: string },
): Promise<RemoteFetch> {
  const name = posix.basename(url.path);
  if (!parseBackupName(name)) {
    throw new BackupError(
      'NOT_FOUND',
      `${name} is not a backup file name (backup_<YYYYMM>_<host>_<YYYYMMDD>_<HHMMSS>.tar.gz.enc)`,
    );
  }
  const dir = join(o.intoDir, `.restore-download-${randomBytes(4).toString('hex')}`);
  const cleanup = (): void => rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { mode: 0o700 });
  try {
    const session = await connectSftp({
      host: url.host,
      port: o.port,
      user: o.user,
      password: o.password,
      hostKey: o.hostKey,
    });
    try {
      const file = join(dir, name);
      await session.download(url.path, file);
      await session.download(sidecarOf(url.path), sidecarOf(file)).catch((err: unknown) => {
        throw new BackupError(
          'SIDECAR_MISSING',
          `the SHA-512 sidecar ${sidecarOf(name)} could not be downloaded: ${(err as Error).message}`,
        );
      });
      return { file, sidecar: sidecarOf(file), cleanup };
    } finally {
      session.close();
    }
  } catch (err) {
    cleanup();
    throw err;
  }
}
