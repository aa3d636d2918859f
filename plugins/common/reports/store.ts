import { existsSync, openSync, readSync, closeSync, readdirSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  BadRequestError,
  NotFoundError,
  PayloadTooLargeError,
  writeFileAtomicAsync,
} from '../../../kernel/sdk/index.ts';
import { assertRoom, folderUsage, type FolderUsage, type QuotaLimits } from './quota.ts';

/** Report names: a plain file name ending in .md, no path, no leading dot. */
export const REPORT_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,124}\.md$/;

export const DEFAULT_CHUNK_BYTES = 64 * 1024;

export interface StoreLimits extends QuotaLimits {
  /** REPORT_MAX_BYTES: the largest single report. */
  reportMaxBytes: number;
}

/**
 * One client's report folder. Names are checked against REPORT_NAME before any path is built, so no
 * name can leave the folder. Writes are atomic, off the event loop (a report is megabytes), and run one
 * at a time per client (one store per client): the quota is checked and the file written with no other
 * write of that client in between, so a flood of concurrent writes cannot pass the quota together.
 */
export class ReportStore {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly dir: string,
    readonly limits: StoreLimits,
  ) {}

  static forClient(root: string, client: string, limits: StoreLimits): ReportStore {
    return new ReportStore(join(root, client), limits);
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

  /** The report's size in bytes (NOT_FOUND when absent), without reading it. */
  size(name: string): number {
    const st = statSync(this.path(name), { throwIfNoEntry: false });
    if (!st) throw new NotFoundError(`no report named ${name}`);
    return st.size;
  }

  async read(name: string): Promise<string> {
    const p = this.path(name);
    if (!existsSync(p)) throw new NotFoundError(`no report named ${name}`);
    return readFile(p, 'utf8');
  }

  /** Runs `fn` with the report's current text (null when absent) and writes what it returns, atomically. */
  update(name: string, fn: (current: string | null) => string): Promise<{ bytes: number; text: string }> {
    const p = this.path(name);
    return this.exclusive(async () => {
      const current = existsSync(p) ? await readFile(p, 'utf8') : null;
      const text = fn(current);
      const bytes = Buffer.byteLength(text, 'utf8');
      if (bytes > this.limits.reportMaxBytes) {
        throw new PayloadTooLargeError(
          `the report would be ${bytes} bytes; the limit is ${this.limits.reportMaxBytes}`,
        );
      }
      assertRoom(folderUsage(this.dir), name, bytes, this.limits);
      await writeFileAtomicAsync(p, text, 0o600);
      return { bytes, text };
    });
  }

  /** The name of report `name`'s PDF export, beside it. */
  pdfName(name: string): string {
    this.path(name);
    return name.replace(/\.md$/, '.pdf');
  }

  /** Refuses early, before any rendering, an export whose PDF could not be kept. */
  assertPdfRoom(name: string): void {
    assertRoom(folderUsage(this.dir), this.pdfName(name), 1, this.limits);
  }

  /** Writes report `name`'s PDF export within the quota; returns the PDF's file name. */
  writePdf(name: string, pdf: Uint8Array): Promise<string> {
    const pdfName = this.pdfName(name);
    return this.exclusive(async () => {
      assertRoom(folderUsage(this.dir), pdfName, pdf.length, this.limits);
      await writeFileAtomicAsync(join(this.dir, pdfName), pdf, 0o600);
      return pdfName;
    });
  }

  /** Files and bytes this client's reports and PDFs take. */
  usage(): FolderUsage {
    return folderUsage(this.dir);
  }

  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn);
    this.queue = run.catch(() => undefined);
    return run;
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
