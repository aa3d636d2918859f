// The backup watchdog (functional spec, Server lifecycle step 10 and Versioning 6): a backup at every
// start, then every BACKUP_INTERVAL_HOURS; no manual trigger exists. A failure is logged, audited and
// shown in /status and the metrics; it never stops the server.

import { existsSync, statSync } from 'node:fs';
import { hostname as osHostname } from 'node:os';
import { basename, join } from 'node:path';
import type { KernelRuntime } from '../runtime.ts';
import type { Watchdog } from '../watchdogs/runner.ts';
import { createBackup, type BackupResult } from './create-backup.ts';
import { BackupError } from './errors.ts';
import { listBackups, pruneBackups, removeLeftovers } from './retention.ts';
import { uploadBackup } from './upload.ts';

export const BACKUP_WATCHDOG = 'backup';

/** Longest wait between two looks at the clock: Node timers overflow past 2^31-1 ms (24.8 days). */
const MAX_TICK_MS = 3_600_000;
/** A failed backup or upload is tried again after this long (or the interval, when shorter). */
const RETRY_MS = 3_600_000;
/** Timers fire a little early or late: a backup is due this much before its exact time. */
const SLACK_MS = 60_000;

export type BackupRuntime = Pick<
  KernelRuntime,
  'config' | 'paths' | 'keys' | 'log' | 'audit' | 'metrics' | 'lastBackup'
>;

export interface BackupWatchdogOptions {
  /** Resolves when startup is complete: the first backup captures the state the start produced. */
  ready?: Promise<void>;
  /** Overrides BACKUP_INTERVAL_HOURS (tests). */
  intervalMs?: number;
  /** Time source for due decisions and file names (tests). */
  now?: () => Date;
  hostname?: string;
}

/**
 * The watchdog wakes at most hourly and backs up when the interval since the last good backup of this
 * process has passed (the first run, at start, always does). A failed backup is retried after an hour;
 * a failed upload retries the upload of that same backup (never a new backup, whose retention would
 * push out older local copies). Until the retry succeeds the watchdog keeps reporting the failure, so
 * its status stays 0 and /status says `failed` (the reason is in app.log and the audit log).
 */
export function backupWatchdog(rt: BackupRuntime, opts: BackupWatchdogOptions = {}): Watchdog {
  const intervalMs = opts.intervalMs ?? rt.config.BACKUP_INTERVAL_HOURS * 3_600_000;
  const retryMs = Math.min(RETRY_MS, intervalMs);
  const now = opts.now ?? (() => new Date());
  const hostname = opts.hostname ?? osHostname();
  let lastBackupAt: number | undefined;
  let backupFailure: Error | undefined;
  let pendingUpload: BackupResult | undefined;
  let lastUploadAt: number | undefined;
  let uploadFailure: Error | undefined;

  // /status and the metrics show the last backup from the first second, even one made before this start.
  const newest = listBackups(rt.paths.backups)[0];
  if (newest) {
    rt.lastBackup = { timestamp: newest.createdAt.toISOString(), filename: newest.file };
    rt.metrics.backupLastTimestamp.set(newest.createdAt.getTime() / 1000);
    try {
      rt.metrics.backupLastBytes.set(statSync(join(rt.paths.backups, newest.file)).size);
    } catch {
      // removed meanwhile; the size is filled in by the next backup
    }
  }

  const backupDue = (t: number): boolean =>
    lastBackupAt === undefined ||
    t >= lastBackupAt + (backupFailure ? retryMs : intervalMs) - Math.min(SLACK_MS, intervalMs / 2);
  const uploadDue = (t: number): boolean =>
    lastUploadAt === undefined || t >= lastUploadAt + retryMs - Math.min(SLACK_MS, retryMs / 2);

  return {
    name: BACKUP_WATCHDOG,
    intervalMs: Math.min(intervalMs, MAX_TICK_MS),
    runOnStart: true,
    run: async (signal) => {
      if (opts.ready) await untilReady(opts.ready, signal);
      if (signal.aborted) return;
      const t = now().getTime();
      if (backupDue(t)) {
        lastBackupAt = t;
        try {
          const result = await makeBackup(rt, signal, now, hostname);
          backupFailure = undefined;
          if (rt.config.BACKUP_SFTP_HOST !== '') {
            pendingUpload = result;
            lastUploadAt = undefined;
          }
        } catch (err) {
          if (signal.aborted) {
            // Stopping the server interrupts a backup (its partial file is removed); the next start makes one.
            rt.log.info('backup interrupted by shutdown');
            lastBackupAt = undefined;
            return;
          }
          backupFailure = err instanceof Error ? err : new Error(String(err));
        }
      }
      if (pendingUpload && !existsSync(pendingUpload.file)) {
        pendingUpload = undefined; // pruned or removed by the operator: nothing left to send
        uploadFailure = undefined;
      }
      if (pendingUpload && !signal.aborted && uploadDue(t)) {
        lastUploadAt = t;
        const file = basename(pendingUpload.file);
        try {
          const remote = await uploadBackup(pendingUpload, rt.config, rt.keys.privateKey);
          rt.log.info({ file, remote }, 'backup uploaded by SFTP');
          rt.audit.write({
            event: 'SERVER',
            status: 'BACKUP_UPLOADED',
            file,
            host: rt.config.BACKUP_SFTP_HOST,
          });
          pendingUpload = undefined;
          uploadFailure = undefined;
        } catch (err) {
          const reason = (err as Error).message;
          rt.audit.write({
            event: 'SERVER',
            status: 'BACKUP_UPLOAD_FAILED',
            severity: 'WARNING',
            file,
            reason,
          });
          uploadFailure = new BackupError(
            'SFTP',
            `backup ${file} was written, but its SFTP upload failed: ${reason}`,
            {
              cause: err,
            },
          );
        }
      }
      if (backupFailure) throw backupFailure;
      if (uploadFailure) throw uploadFailure;
    },
  };
}

async function makeBackup(
  rt: BackupRuntime,
  signal: AbortSignal,
  now: () => Date,
  hostname: string,
): Promise<BackupResult> {
  const started = Date.now();
  let result: BackupResult;
  try {
    // Partial archives of a server killed mid-backup go first: they are as big as a backup.
    removeLeftovers(rt.paths.backups);
    result = await createBackup({
      stateDir: rt.paths.root,
      backupsDir: rt.paths.backups,
      publicKey: rt.keys.publicKey,
      now,
      hostname,
      signal,
      onWarning: (message) => rt.log.warn({ message }, 'backup skipped a file it could not read'),
    });
  } catch (err) {
    if (!signal.aborted) {
      rt.audit.write({
        event: 'SERVER',
        status: 'BACKUP_FAILED',
        severity: 'WARNING',
        reason: (err as Error).message,
      });
    }
    throw err;
  }
  const file = basename(result.file);
  rt.lastBackup = { timestamp: result.createdAt, filename: file };
  rt.metrics.backupLastTimestamp.set(Date.parse(result.createdAt) / 1000);
  rt.metrics.backupLastBytes.set(result.bytes);
  const pruned = pruneBackups(rt.paths.backups, rt.config.BACKUP_RETENTION_COUNT);
  rt.log.info(
    { file, bytes: result.bytes, files: result.files, ms: Date.now() - started, pruned },
    'backup written',
  );
  rt.audit.write({
    event: 'SERVER',
    status: 'BACKUP_CREATED',
    file,
    bytes: result.bytes,
    sha512: result.sha512,
    ...(pruned.length > 0 ? { pruned } : {}),
  });
  return result;
}

function untilReady(ready: Promise<void>, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const done = (): void => {
      signal.removeEventListener('abort', done);
      resolve();
    };
    signal.addEventListener('abort', done, { once: true });
    ready.then(done, done);
  });
}
