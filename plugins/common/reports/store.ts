import { existsSync, mkdirSync, openSync, readSync, closeSync, readdirSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  BadRequestError,
  NotFoundError,
  PayloadTooLargeError,
  writeFileAtomic,
} from '../../../kernel/sdk/index.ts';

/** Report names: a plain file name ending in .md, no path, no leading dot. */
export const REPORT_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,124}\.md$/;

export const DEFAULT_CHUNK_BYTES = 64 * 1024;

/**
 * One client's report folder. Names are checked against REPORT_NAME before any path is built, so no
 * name can leave the folder; writes are atomic and serialised per report.
 */
export class ReportStore {
  private readonly locks = new Map<string, Promise<unknown>>();

  constructor(
    readonly dir: string,
    readonly maxBytes: number,
  ) {}

  static forClient(root: string, client: string, maxBytes: number): ReportStore {
    return new ReportStore(join(root, client), maxBytes);
  }

  path(name: string): string {
    if (!REPORT_NAME.test(name)) {
      throw new BadRequestError(
        'report names are 1-128 characters of letters, digits, ".", "_" or "-", ending in .md',
      );
    }
    return join(this.dir, name);
  }

  exists(name: string): boolean {
    return existsSync(this.path(name));
  }

  async read(name: string): Promise<string> {
    const p = this.path(name);
    if (!existsSync(p)) throw new NotFoundError(`no report named ${name}`);
    return readFile(p, 'utf8');
  }

  /** Runs `fn` with the report's current text (null when absent) and writes what it returns, atomically. */
  async update(name: string, fn: (current: string | null) => string): Promise<{ bytes: number }> {
    const p = this.path(name);
    const prev = this.locks.get(p) ?? Promise.resolve();
    const next = prev.then(async () => {
      const current = existsSync(p) ? await readFile(p, 'utf8') : null;
      const text = fn(current);
      const bytes = Buffer.byteLength(text, 'utf8');
      if (bytes > this.maxBytes) {
        throw new PayloadTooLargeError(`the report would be ${bytes} bytes; the limit is ${this.maxBytes}`);
      }
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      writeFileAtomic(p, text, 0o600);
      return { bytes };
    });
    this.locks.set(
      p,
      next.catch(() => undefined),
    );
    return next;
  }

  /**
   * Reads up to `maxBytes` from byte offset `cursor`, ending on a whole UTF-8 character, so chunks
   * concatenate to the original. Returns the next cursor, or null at the end.
   */
  readChunk(
    name: string,
    cursor: number,
    maxBytes: number,
  ): { text: string; next: number | null; size: number } {
    const p = this.path(name);
    if (!existsSync(p)) throw new NotFoundError(`no report named ${name}`);
    const size = statSync(p).size;
    if (cursor > size)
      throw new BadRequestError(`cursor ${cursor} is past the end of the report (${size} bytes)`);
    const want = Math.min(maxBytes, size - cursor);
    const buf = Buffer.alloc(want);
    const fd = openSync(p, 'r');
    try {
      readSync(fd, buf, 0, want, cursor);
    } finally {
      closeSync(fd);
    }
    let end = want;
    if (cursor + want < size) end = lastCharBoundary(buf);
    const next = cursor + end >= size ? null : cursor + end;
    return { text: buf.subarray(0, end).toString('utf8'), next, size };
  }

  list(): { name: string; bytes: number; modified: string }[] {
    if (!existsSync(this.dir)) return [];
    return readdirSync(this.dir)
      .filter((f) => REPORT_NAME.test(f))
      .map((f) => {
        const st = statSync(join(this.dir, f));
        return { name: f, bytes: st.size, modified: st.mtime.toISOString() };
      });
  }
}

/** Length of the longest prefix of `buf` that ends on a complete UTF-8 character. */
function lastCharBoundary(buf: Buffer): number {
  const i = buf.length;
  // Step back over continuation bytes (10xxxxxx) to the lead byte of the last character.
  let back = 0;
  while (i - back - 1 >= 0 && back < 4 && ((buf[i - back - 1] as number) & 0xc0) === 0x80) back++;
  const leadIndex = i - back - 1;
  if (leadIndex < 0) return i;
  const lead = buf[leadIndex] as number;
  const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return back + 1 >= need ? i : leadIndex;
}
