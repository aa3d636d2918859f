// `utils disaster_recovery history backup`, read the same way by the CUCM, IM and Presence and Unity
// Connection backup checks. The Disaster Recovery System prints a header, then one row per backup:
// `<tar file> <device> <completed on, a CLI date> <result> <type> [features]` (Command Line Interface
// Reference Guide, "utils disaster_recovery history"). Only a row whose result is SUCCESS is a backup one
// could restore from: a failed run (ERROR, or no tar file at all) never counts as one.
import type { Reference } from './checklist.ts';
import { vosCliUtils } from './vos-references.ts';

export const DRF_HISTORY_COMMAND = 'utils disaster_recovery history backup';

/** The CLI reference page that documents the command and its columns. */
export const DRF_HISTORY_REFERENCE: Reference = vosCliUtils('utils disaster_recovery history', [
  DRF_HISTORY_COMMAND,
  'Tar Filename: Backup Device: Completed On: Result: Backup Type: Features Backed Up:',
  'Result SUCCESS | ERROR',
]);

export interface DrfRun {
  /** `2025-11-30-02-00-00.tar`, or undefined when the run left no tar file. */
  tar: string | undefined;
  device: string;
  /** When the run ended, as printed (its time zone is the node's). */
  completedOn: string;
  /** Start (from the tar name) or completion time, read as UTC: a node's zone shifts it by hours, not days. */
  when: Date | undefined;
  result: string;
  type: string;
  features: string;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** `Fri Oct 30 14:55:31 CDT 2009`: the CLI's date, with any zone abbreviation. */
const CLI_DATE = /(\w{3}) +(\w{3}) +(\d{1,2}) (\d{2}):(\d{2}):(\d{2}) +([A-Z][A-Za-z+\-0-9]*) +(\d{4})/;
const TAR_STAMP = /^(\d{4})-(\d{2})-(\d{2})-(\d{2})-(\d{2})-(\d{2})\.tar$/;

function utc(y: string, mo: number, d: string, h: string, mi: string, s: string): Date {
  return new Date(Date.UTC(Number(y), mo, Number(d), Number(h), Number(mi), Number(s)));
}

/** The rows of the history, or undefined when the answer carries no history header at all. */
export function parseDrfHistory(output: string): DrfRun[] | undefined {
  const lines = output.split(/\r?\n/);
  const header = lines.findIndex((l) =>
    /Tar Filename:?\s+Backup Device:?\s+Completed On:?\s+Result/i.test(l),
  );
  if (header < 0) return undefined;
  const runs: DrfRun[] = [];
  for (const line of lines.slice(header + 1)) {
    const date = CLI_DATE.exec(line);
    if (!date) continue;
    const before = line.slice(0, date.index).trim().split(/\s+/);
    const after = line
      .slice(date.index + date[0].length)
      .trim()
      .split(/\s+/);
    const tar = before.find((w) => w.toLowerCase().endsWith('.tar'));
    const stamp = tar ? TAR_STAMP.exec(tar) : null;
    const month = MONTHS.indexOf(date[2] ?? '');
    const when = stamp
      ? utc(stamp[1]!, Number(stamp[2]) - 1, stamp[3]!, stamp[4]!, stamp[5]!, stamp[6]!)
      : month >= 0
        ? utc(date[8]!, month, date[3]!, date[4]!, date[5]!, date[6]!)
        : undefined;
    runs.push({
      tar,
      device: before.at(-1) ?? '',
      completedOn: date[0],
      when,
      result: (after[0] ?? '').toUpperCase(),
      type: after[1] ?? '',
      features: after[2] ?? '',
    });
  }
  return runs;
}

const DAY_MS = 86_400_000;

/**
 * The observation when the newest successful backup is older than `maxAgeDays` (or there is none, or the
 * answer is not a DRS history), undefined when a successful backup is recent enough.
 */
export function judgeBackupHistory(output: string, maxAgeDays: number, now = Date.now()): string | undefined {
  const runs = parseDrfHistory(output);
  if (!runs)
    return `cannot judge: no DRS backup history in the answer (${output.trim().slice(0, 80) || 'empty'})`;
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
