import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ReadEntry } from 'tar';
import { loadTar } from '../support/tar-library.ts';
import { isRestorablePath } from './contents.ts';
import { decryptStream, type OpenedArchive } from './decrypt.ts';
import { BackupError } from './errors.ts';

export interface ExtractResult {
  /** Restored paths (relative, `/`-separated), in archive order. */
  paths: string[];
  files: number;
  dirs: number;
}

const FILE_TYPES = new Set(['File', 'OldFile', 'ContiguousFile']);

/**
 * Decrypts and extracts an archive into `dest`, which must not exist yet (it is created 0700). Refused,
 * and the whole extraction failed: absolute paths, `..` or empty segments, links of any kind, devices,
 * FIFOs, and any path a backup of this server cannot contain (see contents.ts). node-tar's own guards
 * (path escape, decompression-ratio bomb) run too, in strict mode. On any error the caller removes
 * `dest`, which is a staging folder never seen by the server.
 */
export async function extractArchive(
  a: OpenedArchive,
  dest: string,
  opts: { onBytes?: (n: number) => void; owner?: { uid: number; gid: number } } = {},
): Promise<ExtractResult> {
  // A new machine may not have the state directory yet: restoring onto it is how it gets one.
  mkdirSync(dirname(dest), { recursive: true, mode: 0o700 });
  mkdirSync(dest, { mode: 0o700 });
  const refused: string[] = [];
  const result: ExtractResult = { paths: [], files: 0, dirs: 0 };
  const filter = (path: string, entry: ReadEntry | unknown): boolean => {
    const type = (entry as ReadEntry).type;
    const why = unsafe(path, type);
    if (why) {
      refused.push(`${JSON.stringify(path)} (${why})`);
      return false;
    }
    const rel = path.replace(/\/+$/, '');
    result.paths.push(rel);
    if (type === 'Directory') result.dirs++;
    else result.files++;
    return true;
  };
  const { Unpack } = await loadTar();
  const unpack = new Unpack({
    cwd: dest,
    strict: true,
    filter,
    // Owned by whoever restores, or (root restoring in place) by the owner of the live state directory.
    preserveOwner: false,
    ...(opts.owner ? { uid: opts.owner.uid, gid: opts.owner.gid } : {}),
  });
  await new Promise<void>((resolve, reject) => {
    const src = decryptStream(a, opts.onBytes);
    let failed = false;
    const fail = (err: unknown): void => {
      if (failed) return;
      failed = true;
      src.destroy();
      reject(err instanceof Error ? err : new Error(String(err)));
    };
    src.on('error', fail);
    unpack.on('error', (err: Error) =>
      fail(new BackupError('FAILED', `the archive does not extract: ${err.message}`, { cause: err })),
    );
    unpack.on('finish', () => {
      if (!failed) resolve();
    });
    src.pipe(unpack as unknown as NodeJS.WritableStream);
  });
  if (refused.length > 0) {
    throw new BackupError(
      'UNSAFE_ENTRY',
      `the archive holds entries a backup of this server never contains; nothing was restored: ${refused.slice(0, 5).join(', ')}` +
        (refused.length > 5 ? ` and ${refused.length - 5} more` : ''),
    );
  }
  return result;
}

function unsafe(path: string, type: string): string | undefined {
  if (!FILE_TYPES.has(type) && type !== 'Directory') return `${type} entries are not restored`;
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path)) return 'absolute path';
  if (path.includes('\\') || path.includes('\0')) return 'bad characters';
  const rel = path.replace(/\/+$/, '');
  const parts = rel.split('/');
  if (parts.some((p) => p === '..' || p === '.' || p === '')) return 'relative segment';
  if (!isRestorablePath(rel, type === 'Directory' ? 'dir' : 'file')) return 'not a state path';
  return undefined;
}
