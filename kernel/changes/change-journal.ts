import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { BadRequestError, JournalUnavailableError, NotFoundError, isKernelError } from '../errors/index.ts';
import type { ChangeEntry, ChangeFilter, ChangePage, ChangeRecord } from '../sdk/changes.ts';
import { writeFileAtomic } from '../store/atomic-file.ts';
import { withFileLock } from '../store/file-lock.ts';
import { buildRecord, CHANGE_ID, parseRecord, type RecordOrigin } from './change-record.ts';
import { appendLine, firstRecordTime, readLines, readLinesSync } from './journal-file.ts';

/**
 * Every applied change, per client. The interface is what several instances sharing the state
 * directory (issue 24: a shared volume) rely on: each append takes the client file's lock, so records
 * of different writers never interleave or overwrite one another.
 */
export interface ChangeJournal {
  append(entry: ChangeEntry, origin: Omit<RecordOrigin, 'now'>): Promise<ChangeRecord>;
  list(client: string, filter?: ChangeFilter): Promise<ChangePage>;
  get(client: string, id: string): Promise<ChangeRecord>;
}

export interface ChangeJournalOptions {
  /** `<state>/changes`: one `<client>.jsonl` per client. */
  dir: string;
  /** Records older than this are never listed and are removed at the next compaction or sweep. */
  retentionMs: number;
  /** A client's file is compacted (oldest records dropped) before an append would pass this. */
  maxBytesPerClient: number;
  /** A record's line past this carries its images as digests only. */
  maxRecordBytes: number;
  clock?: () => number;
  /** Told when an append cut a torn last record (a write a crash interrupted) or dropped records. */
  onRepair?: (client: string, what: { tornBytes?: number; dropped?: number }) => void;
}

// Client names become file names: no separators, no dot-only names (as the vault's directories).
const CLIENT_FILE = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
const SUFFIX = '.jsonl';
const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 200;

/**
 * The local journal: JSON lines appended with fdatasync under the client file's lock (file-lock.ts,
 * which other processes honour too), so a resolved `append` survives a crash and a crash mid-write
 * leaves at most a torn last line, which readers skip and the next append cuts off: no earlier record
 * is ever lost. A file about to pass its byte bound is rewritten atomically with its newest records,
 * and records past retention go with it; `sweep` does the same for every client at startup, so the
 * files of clients that no longer write age out too.
 */
export class FileChangeJournal implements ChangeJournal {
  private readonly queues = new Map<string, Promise<unknown>>();
  private readonly now: () => number;

  private readonly maxRecordBytes: number;

  constructor(private readonly o: ChangeJournalOptions) {
    this.now = o.clock ?? Date.now;
    // A record always fits a compacted file (three quarters of the bound) with room for others.
    this.maxRecordBytes = Math.min(o.maxRecordBytes, Math.floor(o.maxBytesPerClient / 4));
  }

  async append(entry: ChangeEntry, origin: Omit<RecordOrigin, 'now'>): Promise<ChangeRecord> {
    const path = this.fileOf(origin.client);
    const { record, line } = buildRecord(
      entry,
      { ...origin, now: new Date(this.now()) },
      this.maxRecordBytes,
    );
    return this.serialised(path, () =>
      this.locked(path, () => {
        this.bound(path, origin.client, line.length + 1);
        const torn = appendLine(path, line);
        if (torn > 0) this.o.onRepair?.(origin.client, { tornBytes: torn });
        return record;
      }),
    );
  }

  async list(client: string, filter: ChangeFilter = {}): Promise<ChangePage> {
    const limit = filter.limit ?? DEFAULT_LIMIT;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
      throw new BadRequestError(`limit must be an integer from 1 to ${MAX_LIMIT}`);
    if (filter.cursor !== undefined && !CHANGE_ID.test(filter.cursor))
      throw new BadRequestError('cursor is not a next_cursor this tool returned');
    const since = time(filter.since, 'since');
    const until = time(filter.until, 'until');
    const host = filter.host?.toLowerCase();
    const object = filter.object?.toLowerCase();
    const matches = (await this.records(client)).filter(
      (r) =>
        (host === undefined || r.host.toLowerCase() === host) &&
        (filter.product === undefined || r.product === filter.product) &&
        (object === undefined ||
          [r.object.name, r.object.uuid, r.object.path].some((v) => v?.toLowerCase().includes(object))) &&
        (since === undefined || Date.parse(r.time) >= since) &&
        (until === undefined || Date.parse(r.time) <= until) &&
        (filter.cursor === undefined || r.id < filter.cursor),
    );
    matches.sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
    const page = matches.slice(0, limit);
    return {
      changes: page,
      next_cursor: matches.length > limit ? (page[page.length - 1] as ChangeRecord).id : null,
    };
  }

  async get(client: string, id: string): Promise<ChangeRecord> {
    const found = CHANGE_ID.test(id) ? (await this.records(client)).find((r) => r.id === id) : undefined;
    if (!found) throw new NotFoundError('no such change in your journal');
    return found;
  }

  /** Applies retention to every client's file: run at startup. Returns the records dropped. */
  async sweep(): Promise<number> {
    let names: string[];
    try {
      names = readdirSync(this.o.dir).filter((f) => f.endsWith(SUFFIX) && !f.startsWith('.'));
    } catch {
      return 0;
    }
    let dropped = 0;
    for (const name of names) {
      const client = name.slice(0, -SUFFIX.length);
      if (!CLIENT_FILE.test(client)) continue;
      const path = join(this.o.dir, name);
      const oldest = firstRecordTime(path);
      if (oldest === undefined || oldest >= this.now() - this.o.retentionMs) continue;
      dropped += await this.serialised(path, () =>
        this.locked(path, () => {
          const n = this.compact(path, client, 0);
          if (statSync(path).size === 0) rmSync(path, { force: true });
          return n;
        }),
      );
    }
    return dropped;
  }

  /** The client's records within retention, in file order; lines that are not records are skipped. */
  private async records(client: string): Promise<ChangeRecord[]> {
    const path = this.fileOf(client);
    let read;
    try {
      read = await readLines(path);
    } catch (err) {
      throw new JournalUnavailableError('the change journal cannot be read', { cause: err });
    }
    const oldest = this.now() - this.o.retentionMs;
    const out: ChangeRecord[] = [];
    for (const line of read.lines) {
      const r = parseRecord(line);
      // A record is the client's own whatever file it is found in: a copied file shows nothing foreign.
      if (r && r.client === client && Date.parse(r.time) >= oldest) out.push(r);
    }
    return out;
  }

  /** Makes room for `incoming` bytes: compacts when the file would pass its bound or holds expired records. */
  private bound(path: string, client: string, incoming: number): void {
    let size: number;
    try {
      size = statSync(path).size;
    } catch {
      return;
    }
    const oldest = firstRecordTime(path);
    const expired = oldest !== undefined && oldest < this.now() - this.o.retentionMs;
    if (expired || size + incoming > this.o.maxBytesPerClient) this.compact(path, client, incoming);
  }

  /**
   * Rewrites the file (atomically) with its records within retention, newest kept, to at most three
   * quarters of the bound less `incoming`: compaction then happens once per quarter of the bound, not
   * at every append. Returns the records dropped.
   */
  private compact(path: string, client: string, incoming: number): number {
    const { lines } = readLinesSync(path);
    const oldest = this.now() - this.o.retentionMs;
    const budget = Math.floor((this.o.maxBytesPerClient * 3) / 4) - incoming;
    const kept: string[] = [];
    let bytes = 0;
    for (let i = lines.length - 1; i >= 0; i--) {
      const line = lines[i] as string;
      const r = parseRecord(line);
      if (!r || Date.parse(r.time) < oldest) continue;
      if (bytes + line.length + 1 > budget) break;
      kept.push(line);
      bytes += line.length + 1;
    }
    kept.reverse();
    writeFileAtomic(path, kept.map((l) => `${l}\n`).join(''));
    const dropped = lines.length - kept.length;
    if (dropped > 0) this.o.onRepair?.(client, { dropped });
    return dropped;
  }

  private fileOf(client: string): string {
    if (!CLIENT_FILE.test(client)) throw new BadRequestError('this client name cannot hold a change journal');
    return join(this.o.dir, `${client}${SUFFIX}`);
  }

  private locked<T>(path: string, fn: () => T): Promise<T> {
    return withFileLock(
      path,
      () => {
        try {
          return fn();
        } catch (err) {
          if (isKernelError(err)) throw err;
          throw new JournalUnavailableError('the change journal cannot be written', { cause: err });
        }
      },
      { busy: () => new JournalUnavailableError('the change journal stayed locked by another writer') },
    );
  }

  /** One operation at a time per file in this process: the lock file then only arbitrates between processes. */
  private serialised<T>(path: string, fn: () => Promise<T>): Promise<T> {
    const next = (this.queues.get(path) ?? Promise.resolve()).then(fn);
    const tail = next.catch(() => undefined);
    this.queues.set(path, tail);
    void tail.then(() => {
      if (this.queues.get(path) === tail) this.queues.delete(path);
    });
    return next;
  }
}

function time(v: string | undefined, name: string): number | undefined {
  if (v === undefined) return undefined;
  const t = Date.parse(v);
  if (Number.isNaN(t)) throw new BadRequestError(`${name} must be an ISO 8601 time`);
  return t;
}
