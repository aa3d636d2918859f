// What the Disaster Recovery System's CLI prints, read once for the audits' backup checks and for the
// `*_drf_status` tools: the backup history, the status of the current or last job, and the schedules.
// The three commands and the lines each parser reads, with the source of each:
// - `utils disaster_recovery history backup`: Command Line Interface Reference Guide for Cisco Unified
//   Communications Solutions, 12.5(1)SU5, Utils Commands, "utils disaster_recovery history" (the header
//   `Tar Filename: Backup Device: Completed On: Result: Backup Type: Features Backed Up:`, one row per run,
//   results SUCCESS and ERROR).
// - `utils disaster_recovery status backup`: the same chapter, "utils disaster_recovery status", documents
//   the command but shows no output. The labels read here (`Status:`, `Tar Filename:`, `Storage Location:`,
//   `Operation:`, `Percentage Complete:`, one row per component `<feature> <server> <component> <result>
//   <date> <log file>`, and `drfCliMsg: No backup status available`) are the ones a public parser of the
//   real answer reads (ponchotitlan/ansible_cucm_ssh_module, cucm_ssh.py, disaster_parser, commit 0ebe7bc);
//   no Cisco document prints them.
// - `utils disaster_recovery schedule list`: the same chapter, "utils disaster_recovery schedule list",
//   whose example prints the header `schedule name	device name	Schedule Status`, a rule of dashes and one
//   row per schedule ending in `enabled` or `disabled`.

export const DRF_HISTORY_COMMAND = 'utils disaster_recovery history backup';
export const DRF_STATUS_COMMAND = 'utils disaster_recovery status backup';
export const DRF_SCHEDULE_COMMAND = 'utils disaster_recovery schedule list';

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
const TAR_STAMP = /^(\d{4})-(\d{2})-(\d{2})-(\d{2})-(\d{2})-(\d{2})(?:\.tar)?$/;

function utc(y: string, mo: number, d: string, h: string, mi: string, s: string): Date {
  return new Date(Date.UTC(Number(y), mo, Number(d), Number(h), Number(mi), Number(s)));
}

/** A CLI date (`Fri Oct 30 14:55:31 CDT 2009`) read as UTC, or undefined. */
export function cliDate(m: RegExpExecArray): Date | undefined {
  const month = MONTHS.indexOf(m[2] ?? '');
  return month >= 0 ? utc(m[8]!, month, m[3]!, m[4]!, m[5]!, m[6]!) : undefined;
}

/** When a DRS tar name (`2025-11-30-02-00-00.tar`, or without `.tar`) says its backup started. */
export function tarStart(tar: string | undefined): Date | undefined {
  const stamp = tar ? TAR_STAMP.exec(tar) : null;
  return stamp ? utc(stamp[1]!, Number(stamp[2]) - 1, stamp[3]!, stamp[4]!, stamp[5]!, stamp[6]!) : undefined;
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
    runs.push({
      tar,
      device: before.at(-1) ?? '',
      completedOn: date[0],
      when: tarStart(tar) ?? cliDate(date),
      result: (after[0] ?? '').toUpperCase(),
      type: after[1] ?? '',
      features: after[2] ?? '',
    });
  }
  return runs;
}

export interface DrfComponentStatus {
  feature: string;
  server: string;
  component: string;
  result: string;
  /** As printed, and read as UTC. */
  at: string;
  when: Date | undefined;
  log: string;
}

export interface DrfStatus {
  /** False when the node says no backup status is available (no backup since the DRF master started). */
  available: boolean;
  /** The `Status:` line's value, e.g. `SUCCESS :Backup Completed...`, and its first word. */
  status?: string;
  result?: string;
  tar?: string;
  storage?: string;
  operation?: string;
  percentComplete?: number;
  components: DrfComponentStatus[];
}

function labelled(lines: string[], label: string): string | undefined {
  const re = new RegExp(`^\\s*${label}:\\s*(.*\\S)\\s*$`, 'i');
  for (const l of lines) {
    const m = re.exec(l);
    if (m) return m[1];
  }
  return undefined;
}

/**
 * `utils disaster_recovery status backup`, or undefined when the answer is neither a status nor the
 * "no backup status available" message (an error, another command's output).
 */
export function parseDrfStatus(output: string): DrfStatus | undefined {
  const lines = output.split(/\r?\n/);
  if (lines.some((l) => /No backup status available/i.test(l))) return { available: false, components: [] };
  const status = labelled(lines, 'Status');
  if (status === undefined) return undefined;
  const percent = labelled(lines, 'Percentage Complete');
  const percentNumber = percent === undefined ? NaN : Number.parseFloat(percent);
  const components: DrfComponentStatus[] = [];
  for (const line of lines) {
    const date = CLI_DATE.exec(line);
    if (!date) continue;
    const before = line.slice(0, date.index).trim().split(/\s+/);
    if (before.length !== 4) continue;
    components.push({
      feature: before[0]!,
      server: before[1]!,
      component: before[2]!,
      result: before[3]!.toUpperCase(),
      at: date[0],
      when: cliDate(date),
      log: line.slice(date.index + date[0].length).trim(),
    });
  }
  const tar = labelled(lines, 'Tar Filename');
  const storage = labelled(lines, 'Storage Location');
  const operation = labelled(lines, 'Operation');
  return {
    available: true,
    status,
    result: status.split(/[\s:]+/)[0]?.toUpperCase(),
    ...(tar !== undefined ? { tar } : {}),
    ...(storage !== undefined ? { storage } : {}),
    ...(operation !== undefined ? { operation } : {}),
    ...(Number.isFinite(percentNumber) ? { percentComplete: percentNumber } : {}),
    components,
  };
}

export interface DrfSchedule {
  name: string;
  device: string;
  enabled: boolean;
}

/**
 * `utils disaster_recovery schedule list`: the schedules, or undefined when the answer has no schedule
 * header. A row is `<name> <device name> <enabled|disabled>`, columns separated by tabs or spaces; the
 * device name may itself hold a space (`device 1` in the reference's example).
 */
export function parseDrfSchedules(output: string): DrfSchedule[] | undefined {
  const lines = output.split(/\r?\n/);
  const header = lines.findIndex((l) => /schedule name\s+device name\s+schedule status/i.test(l));
  if (header < 0) return undefined;
  const out: DrfSchedule[] = [];
  for (const line of lines.slice(header + 1)) {
    const words = line.trim().split(/\s+/);
    const state = words.at(-1)?.toLowerCase();
    if (words.length < 3 || (state !== 'enabled' && state !== 'disabled')) continue;
    out.push({ name: words[0]!, device: words.slice(1, -1).join(' '), enabled: state === 'enabled' });
  }
  return out;
}
