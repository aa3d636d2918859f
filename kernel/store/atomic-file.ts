import { closeSync, fsyncSync, linkSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';

/**
 * Writes a file so that a crash at any moment leaves either the old or the new content, never half:
 * temporary file in the same directory, fsync, rename over the target, fsync the directory.
 * Synchronous on purpose: state files are small and callers rely on "returned means durable".
 */
export function writeFileAtomic(path: string, data: string | Uint8Array, mode = 0o600): void {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const tmp = tempPathFor(path);
  const fd = openSync(tmp, 'wx', mode);
  try {
    const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    let off = 0;
    while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
    fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw err;
  }
  closeSync(fd);
  try {
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
  fsyncDir(dir);
}

/**
 * writeFileAtomic off the event loop: the same temporary file, fsync, rename and directory fsync, each
 * step on the thread pool. For files a client sizes (reports of megabytes), whose synchronous write and
 * fsync would stall every other client for their whole duration; callers serialise writes to one path.
 */
export async function writeFileAtomicAsync(
  path: string,
  data: string | Uint8Array,
  mode = 0o600,
): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const tmp = tempPathFor(path);
  const file = await open(tmp, 'wx', mode);
  try {
    await file.writeFile(data);
    await file.sync();
  } catch (err) {
    await file.close();
    await rm(tmp, { force: true });
    throw err;
  }
  await file.close();
  try {
    await rename(tmp, path);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
  const d = await open(dir, 'r').catch(() => undefined);
  // Some filesystems refuse fsync on a directory; the rename itself is still atomic there.
  await d?.sync().catch(() => undefined);
  await d?.close();
}

/**
 * Creates `path` with `data` unless it exists: temporary file, fsync, then link(2) to the final name,
 * atomic like a rename but failing instead of overwriting when another process (a concurrent start,
 * another instance) created it first. Returns false in that case, leaving the other's file.
 */
export function createFileExclusive(path: string, data: string | Uint8Array, mode = 0o600): boolean {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const tmp = tempPathFor(path);
  const fd = openSync(tmp, 'wx', mode);
  try {
    const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    let off = 0;
    while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(tmp, path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    rmSync(tmp, { force: true });
  }
  fsyncDir(dir);
  return true;
}

/** A temporary name beside `path`, hidden and unique, that removeInterruptedWrites recognises. */
function tempPathFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
}

/** fsync a directory so a rename or link in it is durable; a filesystem that refuses is tolerated. */
export function fsyncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Some filesystems refuse fsync on a directory; the rename or link itself is still atomic there.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

export function writeJsonAtomic(path: string, value: unknown, mode = 0o600): void {
  writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`, mode);
}
