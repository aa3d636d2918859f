import { AsyncLocalStorage } from 'node:async_hooks';
import { AuditUnavailableError } from '../errors/index.ts';
import { toJsonLine } from '../logging/json-line.ts';
import { redact } from '../logging/redact.ts';
import { RotatingFile, type RotatingFileOptions } from '../logging/rotating-file.ts';

/** The spec's audit categories (functional-spec.md, Events). */
export type AuditCategory =
  | 'AUTH'
  | 'ACTIONS'
  | 'CREDENTIAL'
  | 'TRUSTED'
  | 'SERVER'
  | 'TRANSPORT'
  | 'RATE_LIMITED'
  | 'WRITTEN'
  | 'EXPORTED';

export type AuditSeverity = 'INFO' | 'WARNING' | 'CRITICAL';

/** What a caller hands the writer; `timestamp` is added by the writer. Category fields go alongside. */
export interface AuditEntry {
  event: AuditCategory;
  status: string;
  client?: string;
  ip?: string;
  severity?: AuditSeverity;
  [field: string]: unknown;
}

export interface AuditRecord extends AuditEntry {
  timestamp: string;
}

/** A record held back by `holding`, until the next record of the same request or the request's end. */
interface Held {
  entry: AuditEntry | undefined;
}

/** Longest string kept in a record: a hostile header value must not bloat the log. */
const MAX_FIELD_CHARS = 512;

/**
 * The single audit writer. One JSON object per line, appended synchronously: when `write` returns the
 * record is in the file (the kernel's page cache, or the disk with AUDIT_FSYNC=1). When it cannot be
 * written, `write` throws AuditUnavailableError, and the operation it would have recorded must not
 * proceed: nothing happens without its audit record.
 */
export class AuditLog {
  private readonly file: RotatingFile;
  private readonly listeners = new Set<(rec: AuditRecord) => void>();
  private readonly held = new AsyncLocalStorage<Held>();

  /** The instance every record names (several instances share one state store); unset: none named. */
  private readonly instance: string | undefined;

  constructor(opts: RotatingFileOptions & { instance?: string }) {
    const { instance, ...file } = opts;
    this.file = new RotatingFile(file);
    this.instance = instance;
  }

  get path(): string {
    return this.file.path;
  }

  write(entry: AuditEntry): AuditRecord {
    const held = this.held.getStore();
    const first = held?.entry;
    const records = this.emit(first ? [first, entry] : [entry]);
    if (held) held.entry = undefined;
    return records[records.length - 1] as AuditRecord;
  }

  /**
   * Runs `fn` with `entry` held back: the next record written from within `fn` (its async context) goes
   * out with it, after it, in the same write(2), so a request's AUTH_OK and its tool call's STARTED record
   * cost one write and are on disk together before the handler runs. Whatever happens, the held record
   * is written by the time `fn` settles (`release` writes it sooner); a write that fails keeps it held.
   */
  async holding<T>(entry: AuditEntry, fn: () => Promise<T>): Promise<T> {
    const held: Held = { entry };
    let result: T;
    try {
      result = await this.held.run(held, fn);
    } finally {
      if (held.entry) this.writeHeld(held);
    }
    return result;
  }

  /** Writes at once the record `holding` keeps for the current request, if any. */
  release(): void {
    const held = this.held.getStore();
    if (held?.entry) this.writeHeld(held);
  }

  private writeHeld(held: Held): void {
    this.emit([held.entry as AuditEntry]);
    held.entry = undefined;
  }

  /** The records as lines, in one write; throws AuditUnavailableError when it cannot be written. */
  private emit(entries: AuditEntry[]): AuditRecord[] {
    const timestamp = new Date().toISOString();
    const records = entries.map((e) => build(e, timestamp, this.instance));
    try {
      this.file.writeLines(records.map((r) => toJsonLine(r)));
    } catch (err) {
      throw new AuditUnavailableError('the audit log cannot be written; the operation was refused', {
        cause: err,
      });
    }
    for (const r of records) for (const l of this.listeners) l(r);
    return records;
  }

  /** Observe records after they are written (metrics, tests). */
  onRecord(listener: (rec: AuditRecord) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  archives(): string[] {
    return this.file.archives();
  }

  flush(): Promise<void> {
    return this.file.flush();
  }

  close(): Promise<void> {
    return this.file.close();
  }
}

/**
 * The record as written: the writer's own timestamp (a clean ISO string, so not redacted) first, then
 * the entry's fields, clipped and redacted.
 */
function build(entry: AuditEntry, timestamp: string, instance: string | undefined): AuditRecord {
  const { event, status, client, ip, severity, instance: _given, ...fields } = entry;
  const body = redact({
    event,
    ...(severity ? { severity } : {}),
    ...(client !== undefined ? { client: clip(client) } : {}),
    ...(ip !== undefined ? { ip: clip(ip) } : {}),
    status,
    ...clipAll(fields),
  }) as Omit<AuditRecord, 'timestamp'>;
  // The writer names the instance, after the timestamp: a caller cannot say it is another instance.
  return { timestamp, ...(instance !== undefined ? { instance } : {}), ...body } as AuditRecord;
}

function clip(v: string): string {
  return v.length > MAX_FIELD_CHARS ? `${v.slice(0, MAX_FIELD_CHARS)}…(${v.length} chars)` : v;
}

function clipAll(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) {
    if (v === undefined) continue;
    out[k] = typeof v === 'string' ? clip(v) : v;
  }
  return out;
}
