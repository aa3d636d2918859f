import { randomBytes, type KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { hostname as osHostname } from 'node:os';
import { isAbsolute, join, relative } from 'node:path';
import { loadPublicKey } from '../keys/rsa-keys.ts';
import { PACKAGE_VERSION, statePaths } from '../paths.ts';
import { fsyncDir, writeFileAtomic } from '../store/atomic-file.ts';
import { selectArchiveContents } from './contents.ts';
import { writeEncryptedArchive } from './encrypt.ts';
import { BackupError } from './errors.ts';
import { backupName, sidecarOf, type BackupName } from './naming.ts';
import { sidecarText } from './sidecar.ts';

export interface CreateBackupOptions {
  /** The state directory to back up. */
  stateDir: string;
  /** Where the backup goes; default `<stateDir>/backups`. */
  backupsDir?: string;
  /** The key to encrypt for; default `<stateDir>/secrets/rsa_public.pem` (a backup needs only the public key). */
  publicKey?: KeyObject;
  /** Host name in the file name; default this host's. */
  hostname?: string;
  /** Time source for the name (tests); default now. */
  now?: () => Date;
  signal?: AbortSignal;
  /** Plaintext bytes archived so far, against the total of the files selected. */
  onProgress?: (done: number, total: number) => void;
  onWarning?: (message: string) => void;
  /**
   * Writes the archive of one attempt; default writeEncryptedArchive. Tests wrap it to make a listed
   * file vanish at a chosen attempt, so the retry below is exercised without a race.
   */
  archive?: typeof writeEncryptedArchive;
}

export interface BackupResult {
  /** `<YYYYMM>_<hostname>_<YYYYMMDD>_<HHMMSS>`. */
  id: string;
  /** Absolute path of the `.tar.gz.enc` file. */
  file: string;
  /** Absolute path of its `.sha512` sidecar. */
  sidecar: string;
  createdAt: string;
  /** Size of the encrypted file. */
  bytes: number;
  /** Files archived. */
  files: number;
  sha512: string;
}

/** Same-second backups (a start right after an upgrade's backup) get the next free second. */
const NAME_ATTEMPTS = 5;

/**
 * Makes one encrypted backup of the state (the backup watchdog, and the upgrade runner's pre-upgrade
 * backup). The archive is written under a temporary name, fsynced, its sidecar written, then renamed
 * into place: a backup either exists whole with its sidecar or not at all.
 */
export async function createBackup(o: CreateBackupOptions): Promise<BackupResult> {
  const paths = statePaths(o.stateDir);
  const dir = o.backupsDir ?? paths.backups;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const publicKey = o.publicKey ?? loadPublicKey(paths.rsaPublicKey);
  const at = (o.now ?? (() => new Date()))();

  let name = backupName(at, o.hostname ?? osHostname());
  for (let i = 1; existsSync(join(dir, name.file)) || existsSync(join(dir, sidecarOf(name.file))); i++) {
    if (i >= NAME_ATTEMPTS) throw new BackupError('EXISTS', `a backup named ${name.file} already exists`);
    name = backupName(new Date(at.getTime() + i * 1000), o.hostname ?? osHostname());
  }
  const file = join(dir, name.file);
  const tmp = join(dir, tempArchiveName(name.file));
  ARCHIVES_BEING_WRITTEN.add(tmp);
  try {
    // A file listed for the archive may be gone by the time it is read: a log rotated and removed in
    // between (busy logging rotates every few seconds). The archive is then made again from a new listing.
    for (let attempt = 1; ; attempt++) {
      try {
        return await writeBackup(o, { dir, name, file, tmp, publicKey, root: paths.root });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        if (attempt >= VANISHED_FILE_ATTEMPTS)
          throw new BackupError(
            'FILES_VANISHING',
            `files of the state kept vanishing while the backup was written (${attempt} attempts, the last: ${vanished(err, paths.root)}); no backup was made: try again when the server is less busy`,
            { cause: err },
          );
      }
    }
  } finally {
    ARCHIVES_BEING_WRITTEN.delete(tmp);
  }
}

/** Archives made in all when files vanish while one is written (see createBackup). */
export const VANISHED_FILE_ATTEMPTS = 3;

/** The vanished file, relative to the state directory (never a path outside it, nor file content). */
function vanished(err: unknown, root: string): string {
  const path = (err as NodeJS.ErrnoException).path;
  if (typeof path !== 'string') return 'a file';
  const rel = relative(root, path);
  return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? 'a file' : rel;
}

/**
 * Temporary archives this process is writing now. A leftover named with this process's pid but not in
 * here is from an earlier life of the server under the same pid (a container restarts with the same
 * pid), so retention may remove it at once.
 */
export const ARCHIVES_BEING_WRITTEN = new Set<string>();

/** `.<backup file>.<pid>.<random>.tmp`: the pid tells whether its writer still runs. */
function tempArchiveName(file: string): string {
  return `.${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
}

/**
 * The pid of the process that wrote a temporary file of a backup, from its name: the archive's
 * (`.<pid>.<8 hex>.tmp`) or its sidecar's atomic write (`.<pid>.<12 hex>.tmp`).
 */
export function tempArchiveWriter(fileName: string): number | undefined {
  const m = /\.(\d+)\.(?:[0-9a-f]{8}|[0-9a-f]{12})\.tmp$/.exec(fileName);
  return m ? Number(m[1]) : undefined;
}

async function writeBackup(
  o: CreateBackupOptions,
  t: { dir: string; name: BackupName; file: string; tmp: string; publicKey: KeyObject; root: string },
): Promise<BackupResult> {
  const { dir, name, file, tmp, publicKey } = t;
  const sidecar = sidecarOf(file);

  const selection = selectArchiveContents(t.root);
  let done = 0;
  const written = await (o.archive ?? writeEncryptedArchive)({
    cwd: t.root,
    entries: selection.entries,
    publicKey,
    meta: {
      id: name.id,
      created_at: name.createdAt.toISOString(),
      hostname: name.hostname,
      server_version: PACKAGE_VERSION,
    },
    out: tmp,
    ...(o.signal ? { signal: o.signal } : {}),
    ...(o.onProgress
      ? {
          onBytes: (n: number) => {
            done += n;
            o.onProgress?.(done, selection.bytes);
          },
        }
      : {}),
    ...(o.onWarning ? { onWarning: o.onWarning } : {}),
  });
  try {
    writeFileAtomic(sidecar, sidecarText(written.sha512, file), 0o600);
    renameSync(tmp, file);
    fsyncDir(dir);
  } catch (err) {
    rmSync(tmp, { force: true });
    rmSync(sidecar, { force: true });
    throw err;
  }
  return {
    id: name.id,
    file,
    sidecar,
    createdAt: name.createdAt.toISOString(),
    bytes: written.bytes,
    files: selection.files,
    sha512: written.sha512,
  };
}
