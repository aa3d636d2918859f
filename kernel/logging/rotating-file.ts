import {
  closeSync,
  createReadStream,
  createWriteStream,
  existsSync,
  fdatasyncSync,
  fstatSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { asciiJson } from './json-line.ts';

export interface RotatingFileOptions {
  path: string;
  /** Rotate before a write would take the file past this many bytes. */
  maxBytes: number;
  /** Gzip archives kept; older ones are deleted. */
  maxFiles: number;
  /** fdatasync after every line: survives power loss, at a cost per write. */
  fsync?: boolean;
}

/**
 * An append-only line sink with size rotation. Each line goes to the kernel in one write(2) on an
 * O_APPEND descriptor, so once `writeLine` returns the line survives the process being killed, and a
 * crash can only ever leave whole lines. Rotated files are renamed at once and gzipped in the
 * background; a rename left uncompressed by a crash is compressed at the next start.
 */
export class RotatingFile {
  readonly path: string;
  private fd: number;
  private size: number;
  private readonly opts: RotatingFileOptions;
  private compressing: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(opts: RotatingFileOptions) {
    this.opts = opts;
    this.path = opts.path;
    mkdirSync(dirname(opts.path), { recursive: true, mode: 0o700 });
    this.fd = openSync(opts.path, 'a', 0o600);
    this.size = fstatSync(this.fd).size;
    // A crash during compression leaves a partial .gz.tmp beside its intact source: drop the partial.
    for (const f of readdirSync(dirname(opts.path))) {
      if (f.startsWith(this.archivePrefix()) && f.endsWith('.gz.tmp'))
        rmSync(join(dirname(opts.path), f), { force: true });
    }
    for (const leftover of this.uncompressedArchives()) this.enqueueCompression(leftover);
  }

  /**
   * Appends one JSON line (a newline is added). Anything outside printable ASCII is escaped first, so
   * whatever a caller serialised, the record can never span two lines (json-line.ts says why).
   * Throws if the line cannot be written.
   */
  writeLine(line: string): void {
    this.writeLines([line]);
  }

  /**
   * Appends lines in one write(2): once it returns they are all in the file, and a failure leaves none
   * of them (whole lines only, as `writeLine`). Throws if they cannot be written.
   */
  writeLines(lines: readonly string[]): void {
    if (this.closed) throw new Error(`log file closed: ${basename(this.path)}`);
    let text = '';
    for (const line of lines) text += `${asciiJson(line)}\n`;
    const buf = Buffer.from(text, 'utf8');
    if (this.size > 0 && this.size + buf.length > this.opts.maxBytes) this.rotate();
    let off = 0;
    try {
      while (off < buf.length) off += writeSync(this.fd, buf, off, buf.length - off);
      if (this.opts.fsync) fdatasyncSync(this.fd);
    } catch (err) {
      // A full disk can take part of the text before refusing the rest: cut the fragment off, so the
      // file keeps only whole lines and the next line does not start glued to a torn one. The fragment
      // is the file's last `off` bytes (another writer, the operator CLI, would have to append in the
      // instant between the refusal and this cut), so its start is found only now: a successful write
      // costs no fstat.
      try {
        ftruncateSync(this.fd, fstatSync(this.fd).size - off);
      } catch {
        // the truncation failing leaves the fragment; readers skip a line that does not parse
      }
      throw err;
    }
    // Lines another process appends (the operator CLI) are counted from the next open: rotation can
    // come that much later, never earlier.
    this.size += buf.length;
  }

  /** Resolves when every rotated file so far is compressed and old archives are pruned. */
  async flush(): Promise<void> {
    await this.compressing;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
    await this.compressing;
  }

  /**
   * Renames the current file aside and opens a fresh one. The old descriptor is closed only once the
   * new one is open: a failure (no inode left, too many files) leaves the sink writing where it was.
   */
  private rotate(): void {
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    // A zero-padded sequence after the timestamp keeps names sorting by age even within one millisecond.
    let n = 0;
    const name = (): string => `${this.path}.${stamp}.${String(n).padStart(4, '0')}`;
    while (existsSync(name()) || existsSync(`${name()}.gz`)) n++;
    const target = name();
    renameSync(this.path, target);
    let fd: number;
    try {
      fd = openSync(this.path, 'a', 0o600);
    } catch (err) {
      renameSync(target, this.path);
      throw err;
    }
    closeSync(this.fd);
    this.fd = fd;
    this.size = 0;
    this.enqueueCompression(target);
  }

  private enqueueCompression(file: string): void {
    this.compressing = this.compressing
      .then(async () => {
        await pipeline(
          createReadStream(file),
          createGzip(),
          createWriteStream(`${file}.gz.tmp`, { mode: 0o600 }),
        );
        renameSync(`${file}.gz.tmp`, `${file}.gz`);
        rmSync(file, { force: true });
        this.prune();
      })
      .catch((err: unknown) => {
        // Never lose the rotated content: the uncompressed file stays and is retried at next start.
        process.emitWarning(
          `log archive compression failed for ${basename(file)}: ${(err as Error).message}`,
        );
      });
  }

  private archivePrefix(): string {
    return `${basename(this.path)}.`;
  }

  private uncompressedArchives(): string[] {
    const dir = dirname(this.path);
    return readdirSync(dir)
      .filter((f) => f.startsWith(this.archivePrefix()) && !f.endsWith('.gz') && !f.endsWith('.tmp'))
      .map((f) => join(dir, f));
  }

  /** Archive files, oldest first (their names carry an ISO timestamp, so names sort by age). */
  archives(): string[] {
    const dir = dirname(this.path);
    return readdirSync(dir)
      .filter((f) => f.startsWith(this.archivePrefix()) && f.endsWith('.gz'))
      .sort()
      .map((f) => join(dir, f));
  }

  private prune(): void {
    const all = this.archives();
    for (const old of all.slice(0, Math.max(0, all.length - this.opts.maxFiles)))
      rmSync(old, { force: true });
  }
}
