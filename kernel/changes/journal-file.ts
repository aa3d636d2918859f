import {
  closeSync,
  existsSync,
  fdatasyncSync,
  fstatSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  writeSync,
} from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fsyncDir } from '../store/atomic-file.ts';

/** Bytes read at a time when looking back for the last newline of a torn file. */
const CHUNK = 64 * 1024;

/**
 * Appends one line to a journal file, durably (fdatasync before it returns). A file whose last line
 * has no newline holds the start of a write a crash interrupted: that fragment is cut first, so the new
 * line never starts glued to it and every earlier line stays whole. A write that fails part-way is cut
 * back the same way. Returns how many torn bytes were cut. Callers hold the file's lock.
 */
export function appendLine(path: string, line: string): number {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const created = !existsSync(path);
  const fd = openSync(path, 'a+', 0o600);
  try {
    const torn = cutTornTail(fd);
    const buf = Buffer.from(`${line}\n`, 'utf8');
    const start = fstatSync(fd).size;
    let off = 0;
    try {
      while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
      fdatasyncSync(fd);
    } catch (err) {
      try {
        ftruncateSync(fd, start);
      } catch {
        // left as a torn tail: the next append or read skips it
      }
      throw err;
    }
    // A new file's name must survive a power loss as well as its first record.
    if (created) fsyncDir(dirname(path));
    return torn;
  } finally {
    closeSync(fd);
  }
}

/** Truncates the file after its last newline (nothing when it ends with one); the bytes cut. */
function cutTornTail(fd: number): number {
  const size = fstatSync(fd).size;
  if (size === 0) return 0;
  const buf = Buffer.alloc(CHUNK);
  let end = size;
  while (end > 0) {
    const start = Math.max(0, end - CHUNK);
    const n = readSync(fd, buf, 0, end - start, start);
    const nl = buf.subarray(0, n).lastIndexOf(0x0a);
    if (nl >= 0) {
      const keep = start + nl + 1;
      if (keep < size) ftruncateSync(fd, keep);
      return size - keep;
    }
    end = start;
  }
  ftruncateSync(fd, 0);
  return size;
}

/**
 * The file's whole lines, and whether a torn fragment followed them (a write under way, or one a crash
 * interrupted: never a record). A missing file has none.
 */
export async function readLines(path: string): Promise<{ lines: string[]; torn: boolean }> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { lines: [], torn: false };
    throw err;
  }
  return splitLines(text);
}

export function readLinesSync(path: string): { lines: string[]; torn: boolean } {
  try {
    return splitLines(readFileSync(path, 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { lines: [], torn: false };
    throw err;
  }
}

function splitLines(text: string): { lines: string[]; torn: boolean } {
  const parts = text.split('\n');
  const tail = parts.pop() as string;
  return { lines: parts.filter((l) => l !== ''), torn: tail !== '' };
}

/** The time of the file's first record, read from its first bytes (records start with `{"time":`). */
export function firstRecordTime(path: string): number | undefined {
  const m = /^\{"time":"([^"]{1,40})"/.exec(head(path, 64) ?? '');
  const t = m ? Date.parse(m[1] as string) : Number.NaN;
  return Number.isNaN(t) ? undefined : t;
}

/** Up to `bytes` first bytes of the file as Latin-1; undefined when it cannot be read (gone). */
function head(path: string, bytes: number): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const buf = Buffer.alloc(bytes);
    return buf.subarray(0, readSync(fd, buf, 0, bytes, 0)).toString('latin1');
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
