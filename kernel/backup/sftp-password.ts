// BACKUP_SFTP_PASSWORD_ENC: the SFTP password encrypted with RSA-OAEP (SHA-256) under the server public
// key, base64. Only the holder of the private key (the server, or a restore given --key) can read it.

import { constants, privateDecrypt, publicEncrypt, type KeyObject } from 'node:crypto';
import { BackupError } from './errors.ts';

/** RSA-4096 with OAEP-SHA-256 fits 446 bytes; a password is far shorter. */
export const MAX_PASSWORD_BYTES = 446;

export function encryptSftpPassword(password: string, publicKey: KeyObject): string {
  const bytes = Buffer.from(password, 'utf8');
  if (bytes.length === 0) throw new BackupError('FAILED', 'the password is empty');
  if (bytes.length > MAX_PASSWORD_BYTES) {
    throw new BackupError('FAILED', `the password is longer than ${MAX_PASSWORD_BYTES} bytes`);
  }
  return publicEncrypt(
    { key: publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
    bytes,
  ).toString('base64');
}

export function decryptSftpPassword(encrypted: string, privateKey: KeyObject): string {
  try {
    return privateDecrypt(
      { key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
      Buffer.from(encrypted.trim(), 'base64'),
    ).toString('utf8');
  } catch (err) {
    throw new BackupError(
      'SFTP',
      'BACKUP_SFTP_PASSWORD_ENC does not decrypt with this private key (re-run encrypt_sftp_password after a key rotation)',
      { cause: err },
    );
  }
}
