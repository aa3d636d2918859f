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

  constructor(opts: RotatingFileOptions) {
    this.file = new RotatingFile(opts);
  }

  get path(): string {
    return this.file.path;
  }

  write(entry: AuditEntry): AuditRecord {
    const { event, status, client, ip, severity, ...fields } = entry;
    const record = redact({
      timestamp: new Date().toISOString(),
      event,
      ...(severity ? { severity } : {}),
      ...(client !== undefined ? { client: clip(client) } : {}),
      ...(ip !== undefined ? { ip: clip(ip) } : {}),
      status,
      ...clipAll(fields),
    }) as AuditRecord;
    try {
      this.file.writeLine(toJsonLine(record));
    } catch (err) {
      throw new AuditUnavailableError('the audit log cannot be written; the operation was refused', {
        cause: err,
      });
    }
    for (const l of this.listeners) l(record);
    return record;
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
