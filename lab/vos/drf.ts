// A node's Disaster Recovery System runs, the one source of both views the CLI gives of them: the
// per-component logs `file list activelog platform/drf/log` shows (`<start>_b_<server>_<component>.log`)
// and the rows of `utils disaster_recovery history backup`. A failed run leaves the log of the component
// it failed on and an ERROR row, so the two views always agree, and a failure never reads as a backup.
import type { BackupRecord, DrfJob, DrfSchedule, LabFile } from './facts.ts';

export const DRF_LOG_DIR = 'platform/drf/log';

export interface BackupRun {
  start: Date;
  result: 'SUCCESS' | 'ERROR';
  type: 'SCHEDULED' | 'MANUAL';
}

export interface DrfComponent {
  server: string;
  component: string;
  size: number;
}

export interface DrfModel {
  listFiles(partition: string, dir: string, now: Date): LabFile[] | undefined;
  drfHistory(now: Date): BackupRecord[];
  drfLastJob(now: Date): DrfJob | undefined;
  drfSchedules(now: Date): DrfSchedule[];
}

/** `2025-11-30-02-00-00`: the start time a DRF log's and a backup tar's name begin with. */
export function drfStamp(d: Date): string {
  return d.toISOString().slice(0, 19).replace(/[T:]/g, '-');
}

/**
 * The DRF folder and history of a node: `runs` are its backups (oldest first or not), each component
 * logging `stepMs` after the previous one; `ownLogs` are the master and local agents' logs.
 */
export function drfModel(opts: {
  runs(now: Date): BackupRun[];
  components: readonly DrfComponent[];
  stepMs: number;
  ownLogs(now: Date): LabFile[];
  /** The schedules; default: one enabled nightly schedule when any run was scheduled, else none. */
  schedules?: DrfSchedule[];
}): DrfModel {
  // A failed run stops at its first component: that one logged the error.
  const logged = (run: BackupRun): readonly DrfComponent[] =>
    run.result === 'SUCCESS' ? opts.components : opts.components.slice(0, 1);
  const finished = (run: BackupRun): Date => new Date(run.start.getTime() + logged(run).length * opts.stepMs);
  const newest = (now: Date): BackupRun | undefined =>
    opts.runs(now).reduce<BackupRun | undefined>((a, r) => (!a || r.start > a.start ? r : a), undefined);
  return {
    listFiles(partition, dir, now) {
      if (partition !== 'activelog' || dir !== DRF_LOG_DIR) return undefined;
      const files = opts.ownLogs(now);
      for (const run of opts.runs(now))
        logged(run).forEach((c, i) =>
          files.push({
            name: `${drfStamp(run.start)}_b_${c.server}_${c.component}.log`,
            size: c.size,
            modified: new Date(run.start.getTime() + (i + 1) * opts.stepMs),
          }),
        );
      return files;
    },
    drfHistory(now) {
      return opts
        .runs(now)
        .slice()
        .sort((a, b) => a.start.getTime() - b.start.getTime())
        .map((run) => ({
          tar: `${drfStamp(run.start)}.tar`,
          completed: finished(run),
          result: run.result,
          type: run.type,
        }));
    },
    // The DRF master keeps the last job's status until the next one starts: its components, each with
    // the log it wrote (a failed run stops at its first component, which logged the error).
    drfLastJob(now) {
      const run = newest(now);
      if (!run) return undefined;
      return {
        tar: drfStamp(run.start),
        result: run.result,
        components: logged(run).map((c, i) => ({
          server: c.server,
          component: c.component,
          result: run.result,
          at: new Date(run.start.getTime() + i * opts.stepMs),
          log: `activelog/${DRF_LOG_DIR}/${drfStamp(run.start)}_b_${c.server}_${c.component}.log`,
        })),
      };
    },
    // Scheduled runs come from a schedule; a node that only ever ran manual backups has none.
    drfSchedules(now) {
      if (opts.schedules) return opts.schedules;
      const scheduled = opts.runs(now).filter((r) => r.type === 'SCHEDULED');
      return scheduled.length === 0 ? [] : [{ name: 'DailyBackup', device: 'BACKUP_SFTP', enabled: true }];
    },
  };
}
