import type { KeyObject } from 'node:crypto';
import { basename } from 'node:path';
import type { Config } from '../config/schema.ts';
import type { BackupResult } from './create-backup.ts';
import { connectSftp } from './sftp.ts';
import { decryptSftpPassword } from './sftp-password.ts';

type SftpConfig = Pick<
  Config,
  | 'BACKUP_SFTP_HOST'
  | 'BACKUP_SFTP_PORT'
  | 'BACKUP_SFTP_USER'
  | 'BACKUP_SFTP_PASSWORD_ENC'
  | 'BACKUP_SFTP_PATH'
  | 'BACKUP_SFTP_HOST_KEY'
>;

/**
 * Copies a backup and its sidecar to the configured SFTP server (archive first, sidecar last, each under
 * a temporary name then renamed: a remote sidecar means a complete remote archive). Returns the remote
 * path of the archive. Remote copies are never deleted by the server: retention there is the operator's.
 */
export async function uploadBackup(b: BackupResult, cfg: SftpConfig, privateKey: KeyObject): Promise<string> {
  const session = await connectSftp({
    host: cfg.BACKUP_SFTP_HOST,
    port: cfg.BACKUP_SFTP_PORT,
    user: cfg.BACKUP_SFTP_USER,
    password: decryptSftpPassword(cfg.BACKUP_SFTP_PASSWORD_ENC, privateKey),
    hostKey: cfg.BACKUP_SFTP_HOST_KEY,
  });
  try {
    const remote = await session.upload(b.file, cfg.BACKUP_SFTP_PATH, basename(b.file));
    await session.upload(b.sidecar, cfg.BACKUP_SFTP_PATH, basename(b.sidecar));
    return remote;
  } finally {
    session.close();
  }
}
