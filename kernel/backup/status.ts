import type { KernelRuntime } from '../runtime.ts';
import { BACKUP_WATCHDOG } from './watchdog.ts';

/**
 * The `backup` section of /status and infra_server_status: the last backup (timestamp and file name, as
 * the spec asks) and whether the watchdog's last run worked. The reason of a failure stays in app.log
 * and the audit log: status callers are agents, and error text can carry paths and host names.
 */
export function backupStatus(
  rt: Pick<KernelRuntime, 'config' | 'lastBackup' | 'watchdogs'>,
): Record<string, unknown> {
  const last = rt.lastBackup;
  const state = rt.watchdogs.states().find((s) => s.name === BACKUP_WATCHDOG);
  const status = !rt.config.BACKUP_ENABLED
    ? 'disabled'
    : state?.lastOk === false
      ? 'failed'
      : state?.lastOk === true
        ? 'ok'
        : 'pending';
  return {
    last: last ? { timestamp: last.timestamp, filename: last.filename } : null,
    ...(last ? {} : { message: 'no backup yet' }),
    status,
    ...(status === 'failed'
      ? { failed_at: state?.lastRun, detail: 'see app.log and the SERVER audit records' }
      : {}),
    interval_hours: rt.config.BACKUP_INTERVAL_HOURS,
    retention_count: rt.config.BACKUP_RETENTION_COUNT,
    sftp_upload: rt.config.BACKUP_SFTP_HOST !== '',
  };
}
