import type { AuditEntry } from '../audit/audit-log.ts';

/** The part of AuditLog the vault uses: synchronous, and it throws when the record cannot be written. */
export interface VaultAudit {
  write(entry: AuditEntry): unknown;
}

/** The part of the app logger (bunyan) the vault uses. Nothing secret is ever passed to it. */
export interface VaultLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}
