// `utils disaster_recovery history backup`, read the same way by the CUCM, IM and Presence and Unity
// Connection backup checks. The Disaster Recovery System prints a header, then one row per backup:
// `<tar file> <device> <completed on, a CLI date> <result> <type> [features]` (Command Line Interface
// Reference Guide, "utils disaster_recovery history"). Only a row whose result is SUCCESS is a backup one
// could restore from: a failed run (ERROR, or no tar file at all) never counts as one.
import type { EvidenceResult, Reference } from './checklist.ts';
import { vosCliUtils } from './vos-references.ts';

import {
  DRF_HISTORY_COMMAND,
  DRF_SCHEDULE_COMMAND,
  DRF_STATUS_COMMAND,
  parseDrfHistory,
} from '../vos/drf-output.ts';

// The parser lives with the other DRS answers (plugins/_shared/vos/drf-output.ts), shared with the
// `*_drf_status` tools; the audits import it from there or, as before, from here.
export { DRF_HISTORY_COMMAND, parseDrfHistory, type DrfRun } from '../vos/drf-output.ts';

/** The CLI reference page that documents the command and its columns. */
export const DRF_HISTORY_REFERENCE: Reference = vosCliUtils('utils disaster_recovery history', [
  DRF_HISTORY_COMMAND,
  'Tar Filename: Backup Device: Completed On: Result: Backup Type: Features Backed Up:',
  'Result SUCCESS | ERROR',
]);

/** The status of the current or last backup: the reference documents the command, not its output. */
export const DRF_STATUS_REFERENCE: Reference = vosCliUtils('utils disaster_recovery status', [
  DRF_STATUS_COMMAND,
]);

/** The backup schedules; the reference's example prints the header and one row per schedule. */
export const DRF_SCHEDULE_REFERENCE: Reference = vosCliUtils('utils disaster_recovery schedule list', [
  DRF_SCHEDULE_COMMAND,
  'schedule name, device name, Schedule Status (the header of its example)',
  'a row per schedule ending in enabled or disabled',
]);

/**
 * The sources of every command the `<product>_drf_status` evidence runs (history, then status and
 * schedules): the backup checks of the three products cite them all.
 */
export const DRF_STATUS_REFERENCES: readonly Reference[] = [
  DRF_HISTORY_REFERENCE,
  DRF_STATUS_REFERENCE,
  DRF_SCHEDULE_REFERENCE,
];

const DAY_MS = 86_400_000;

/** What the judgement needs of a run: the tool's parsed rows and the parser's alike. */
export interface JudgedRun {
  tar: string | undefined;
  result: string;
  when: Date | undefined;
}

/**
 * The observation when the newest successful backup is older than `maxAgeDays` (or there is none, or the
 * answer is not a DRS history), undefined when a successful backup is recent enough.
 */
export function judgeBackupHistory(output: string, maxAgeDays: number, now = Date.now()): string | undefined {
  const runs = parseDrfHistory(output);
  if (!runs)
    return `cannot judge: no DRS backup history in the answer (${output.trim().slice(0, 80) || 'empty'})`;
  return judgeBackupRuns(runs, maxAgeDays, now);
}

/**
 * The same judgement on the parsed history `<product>_drf_status` returns (`history`: rows with tar,
 * result and started_at), the audits' evidence: a failed call or an unrecognised history cannot be judged.
 */
export function judgeDrfStatus(
  r: EvidenceResult | undefined,
  maxAgeDays: number,
  now = Date.now(),
): string | undefined {
  if (!r?.ok)
    return `cannot judge: no DRS backup history (${r ? `${r.error}: ${r.message}` : 'not read'})`.slice(
      0,
      200,
    );
  const history = r.data.history;
  if (!Array.isArray(history)) {
    const seen = (r.data.unrecognised as { excerpt?: string }[] | undefined)?.[0]?.excerpt ?? 'empty';
    return `cannot judge: no DRS backup history in the answer (${seen.slice(0, 80)})`;
  }
  const runs = (history as Record<string, unknown>[]).map((h): JudgedRun => ({
    tar: typeof h.tar === 'string' ? h.tar : undefined,
    result: String(h.result ?? ''),
    when: typeof h.started_at === 'string' ? new Date(h.started_at) : undefined,
  }));
  return judgeBackupRuns(runs, maxAgeDays, now);
}

function judgeBackupRuns(runs: JudgedRun[], maxAgeDays: number, now: number): string | undefined {
  if (runs.length === 0) return 'no backup has ever run (the DRS backup history is empty)';
  const ok = runs.filter((r) => r.result === 'SUCCESS' && r.tar !== undefined && r.when !== undefined);
  const failed = (since: number): number =>
    runs.filter((r) => r.result !== 'SUCCESS' && (r.when?.getTime() ?? 0) > since).length;
  if (ok.length === 0)
    return `no successful backup: all ${runs.length} backup runs in the DRS history failed`;
  const newest = Math.max(...ok.map((r) => (r.when as Date).getTime()));
  const days = Math.floor((now - newest) / DAY_MS);
  if (days <= maxAgeDays) return undefined;
  const later = failed(newest);
  return `last successful backup ${days} days ago (${new Date(newest).toISOString().slice(0, 10)})${later > 0 ? `; ${later} later run(s) failed` : ''}`;
}
