import { AuditLog, type AuditEntry } from '../audit/audit-log.ts';
import type { OperatorSettings } from '../support/settings.ts';

/**
 * One record an operator command adds to the live audit log, rotated as the server rotates it. The
 * record is written before this returns its promise (the file is closed after). A failure to record is
 * swallowed: the command's action is done, and a missing audit line must not turn it into a failure.
 */
export async function recordOperatorEvent(settings: OperatorSettings, entry: AuditEntry): Promise<void> {
  try {
    const audit = new AuditLog({
      path: settings.paths.auditLog,
      maxBytes: settings.config?.LOGGING_ROTATE_SIZE ?? 5_242_880,
      maxFiles: settings.config?.LOGGING_ROTATE_FILES ?? 5,
    });
    audit.write(entry);
    await audit.close();
  } catch {
    // see above: the action stands without its line
  }
}
