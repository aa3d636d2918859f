// SFTP copy of backups (ssh2). The server's host key is pinned by its SHA-256 fingerprint
// (BACKUP_SFTP_HOST_KEY, `ssh-keygen -lf` form): any other key is refused during key exchange, before the
// password is sent. There is no trust on first use here: nobody is there to decide.

import { createRequire } from 'node:module';
import { posix } from 'node:path';
import type ssh2 from 'ssh2';
import { normaliseFingerprint, sshFingerprint } from '../vault/fingerprint.ts';
import { BackupError } from './errors.ts';

export interface SftpTarget {
  host: string;
  port: number;
  user: string;
  /** Plaintext, only in memory: decrypted from BACKUP_SFTP_PASSWORD_ENC just before connecting. */
  password: string;
  /** Pinned `SHA256:...` fingerprint of the server's host key. */
  hostKey: string;
  timeoutMs?: number;
}

export interface SftpSession {
  /** Uploads under a temporary name then renames, so the remote side never shows half a file. */
  upload(localPath: string, remoteDir: string, name: string): Promise<string>;
  download(remotePath: string, localPath: string): Promise<void>;
  close(): void;
}

const DEFAULT_TIMEOUT_MS = 30_000;

const require = createRequire(import.meta.url);
let ssh2Library: typeof ssh2 | undefined;

/**
 * ssh2, loaded by the first SFTP copy: about 110 ms of startup CPU for a copy that may never run (a
 * failed load throws here, inside the copy, and the next copy tries again).
 */
function loadSsh2(): typeof ssh2 {
  try {
    return (ssh2Library ??= require('ssh2') as typeof ssh2);
  } catch (err) {
    throw new BackupError('SFTP', `the SSH library (ssh2) could not be loaded: ${(err as Error).message}`, {
      cause: err,
    });
  }
}

export async function connectSftp(t: SftpTarget): Promise<SftpSession> {
  const pinned = normaliseFingerprint(t.hostKey);
  if (!pinned) {
    throw new BackupError(
      'SFTP',
      'no valid SFTP host key fingerprint is configured (BACKUP_SFTP_HOST_KEY=SHA256:...)',
    );
  }
  const client = new (loadSsh2().Client)();
  let offered: string | undefined;
  const sftp = await new Promise<ssh2.SFTPWrapper>((resolve, reject) => {
    const fail = (err: Error): void => {
      client.end();
      if (offered !== undefined && offered !== pinned) {
        reject(
          new BackupError(
            'SFTP',
            `SFTP host ${t.host}:${t.port} presented host key ${offered}, not the pinned ${pinned}: refused ` +
              '(if the server was legitimately re-keyed, check the new fingerprint out of band and update BACKUP_SFTP_HOST_KEY)',
          ),
        );
        return;
      }
      reject(
        new BackupError('SFTP', `SFTP connection to ${t.host}:${t.port} failed: ${err.message}`, {
          cause: err,
        }),
      );
    };
    client
      .on('ready', () => {
        client.sftp((err, s) => (err ? fail(err) : resolve(s)));
      })
      .on('error', fail)
      .connect({
        host: t.host,
        port: t.port,
        username: t.user,
        password: t.password,
        readyTimeout: t.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        // hostHash unset: ssh2 hands the raw key blob, fingerprinted here exactly as ssh-keygen does.
        hostVerifier: (key: Buffer) => {
          offered = sshFingerprint(key);
          return offered === pinned;
        },
        tryKeyboard: false,
      });
  });

  const call = <T>(
    what: string,
    fn: (cb: (err: Error | null | undefined, v?: T) => void) => void,
  ): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      fn((err, v) =>
        err
          ? reject(new BackupError('SFTP', `SFTP ${what} failed: ${err.message}`, { cause: err }))
          : resolve(v as T),
      );
    });

  return {
    async upload(localPath, remoteDir, name) {
      const dir = remoteDir === '' ? '.' : remoteDir;
      const final = posix.join(dir, name);
      const tmp = posix.join(dir, `.${name}.part`);
      await call<void>(`upload of ${name}`, (cb) => sftp.fastPut(localPath, tmp, cb));
      // SFTP v3 rename refuses an existing target; a leftover from an interrupted upload of the same
      // name is replaced (backup names are unique, so only such a leftover can be there).
      await new Promise<void>((resolve) => sftp.unlink(final, () => resolve()));
      await call<void>(`rename of ${name}`, (cb) => sftp.rename(tmp, final, cb));
      return final;
    },
    async download(remotePath, localPath) {
      await call<void>(`download of ${remotePath}`, (cb) => sftp.fastGet(remotePath, localPath, cb));
    },
    close() {
      sftp.end();
      client.end();
    },
  };
}

/** An `sftp://[user@]host[:port]/path` location; `/~/path` is relative to the login directory (curl's rule). */
export interface SftpUrl {
  host: string;
  port?: number;
  user?: string;
  path: string;
}

export function parseSftpUrl(text: string): SftpUrl | undefined {
  if (!text.startsWith('sftp://')) return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new BackupError('NOT_FOUND', `not a valid sftp:// URL: ${text.replace(/\/\/[^@/]*@/, '//***@')}`);
  }
  if (url.password !== '') {
    // A password in a URL ends up in shell history and process listings.
    throw new BackupError(
      'SFTP',
      'do not put a password in the sftp:// URL; it is read from BACKUP_SFTP_PASSWORD_ENC or asked for',
    );
  }
  const raw = decodeURIComponent(url.pathname);
  const path = raw.startsWith('/~/') ? raw.slice(3) : raw;
  if (path === '' || path.endsWith('/'))
    throw new BackupError('NOT_FOUND', 'the sftp:// URL must name a backup file');
  return {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    ...(url.port !== '' ? { port: Number(url.port) } : {}),
    ...(url.username !== '' ? { user: decodeURIComponent(url.username) } : {}),
    path,
  };
}
