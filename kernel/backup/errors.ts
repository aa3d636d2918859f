/** Why a backup could not be made, read or restored: each reason has its own clear message. */
export type BackupErrorReason =
  | 'NOT_FOUND'
  | 'SIDECAR_MISSING'
  | 'SIDECAR_MALFORMED'
  | 'SIDECAR_MISMATCH'
  | 'NOT_A_BACKUP'
  | 'UNSUPPORTED_VERSION'
  | 'TRUNCATED'
  | 'WRONG_KEY'
  | 'TAMPERED'
  | 'UNSAFE_ENTRY'
  | 'BAD_KEY'
  | 'EXISTS'
  | 'SERVER_RUNNING'
  | 'SERVER_STOP_TIMEOUT'
  | 'SFTP'
  | 'FILES_VANISHING'
  | 'FAILED';

/**
 * A backup or restore failure the operator can act on. The message never carries a secret (password,
 * private key, session key); `reason` lets the CLI and tests tell the cases apart.
 */
export class BackupError extends Error {
  constructor(
    readonly reason: BackupErrorReason,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'BackupError';
  }
}
