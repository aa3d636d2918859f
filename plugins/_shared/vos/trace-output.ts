// What the VOS CLI's trace commands are and what this server reads from their answers, for the
// `*_trace_level` tools. Every VOS node keeps its own trace settings per task; no serviceability SOAP
// API reads or sets them (developer.cisco.com's Serviceability APIs: RisPort70, PerfMon, Control
// Center Services, Log Collection, DIME, CDR on Demand; none has a trace operation), so the
// documented interface is the CLI. Sources:
// - `set trace enable { Arbitrary | Detailed | Entry_exit | Error | Significant | Special |
//   State_Transition } tname` ("sets trace activity for the specified task") and `set trace disable
//   tname` ("unsets trace activity"), privilege level 1, Unified CM, IM and Presence and Unity
//   Connection: Command Line Interface Reference Guide for Cisco Unified Communications Solutions,
//   12.5(1)SU2, Set Commands, "set trace enable" and "set trace disable"
//   (https://www.cisco.com/c/en/us/td/docs/voice_ip_comm/cucm/cli_ref/12_5_1SU2/cucm_b_command-line-interface-reference-guide-1251Su2/cucm_b_command-line-interface-reference-guide-1251Su2_chapter_0110.html).
// - `show trace [task_name]` ("displays trace information for a particular task"; without a task "the
//   command returns a list of available tasks"; example `show trace cdps`): the same guide, 12.5(1)SU3,
//   Show Commands, "show trace"
//   (https://www.cisco.com/c/en/us/td/docs/voice_ip_comm/cucm/cli_ref/12_5_1SU3/cucm_b_command-line-interface-reference-guide_1251su3/cucm_b_command-line-interface-reference-guide-1251Su2_chapter_0111.html).
// - A task name in use: `set trace enable Detailed cdpmib`, then `set trace disable cdpmib` (Troubleshooting
//   Guide for Cisco Unified Communications Manager, 12.5(1), SNMP Troubleshooting, CISCO-CDP-MIB Tips).
// No Cisco document prints the answer of `show trace` with or without a task: the readers below are
// written for this project and say so (`recognised: false` with an excerpt when they find nothing).

/** The levels of `set trace enable`, spelled as the CLI reference spells the keywords. */
export const TRACE_LEVELS = [
  'Error',
  'Special',
  'State_Transition',
  'Significant',
  'Entry_exit',
  'Arbitrary',
  'Detailed',
] as const;
export type TraceLevel = (typeof TRACE_LEVELS)[number];

/** A task name as typed after the trace commands: one word, nothing the shell could read otherwise. */
export const TASK_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export const SHOW_TRACE_COMMAND = 'show trace';

export function showTraceCommand(task: string): string {
  return `${SHOW_TRACE_COMMAND} ${task}`;
}

/** `set trace enable <Level> <task>`, or `set trace disable <task>` for `disabled`. */
export function setTraceCommand(level: TraceLevel | 'disabled', task: string): string {
  return level === 'disabled' ? `set trace disable ${task}` : `set trace enable ${level} ${task}`;
}

/** A level written any of the ways people and pages write it (`State Transition`, `entry/exit`...). */
export function traceLevelOf(word: string): TraceLevel | undefined {
  const key = (s: string): string => s.toLowerCase().replace(/[\s/_-]+/g, '');
  const k = key(word);
  return TRACE_LEVELS.find((l) => key(l) === k);
}

/**
 * The task names of `show trace` without a task: the words of its lines that look like task names,
 * skipping heading lines (those with a colon) and the CLI's own failure text. Unverified (see above).
 */
export function parseTraceTasks(output: string): string[] {
  const names = new Set<string>();
  for (const line of output.split('\n')) {
    if (line.includes(':') || /executed command|invalid|error/i.test(line)) continue;
    for (const w of line.trim().split(/[\s,]+/)) if (TASK_NAME.test(w)) names.add(w);
  }
  return [...names];
}

export interface TraceState {
  /** False when the answer says the task's trace is off; null when it says neither. */
  enabled: boolean | null;
  /** The level the answer names (one of TRACE_LEVELS), or null. */
  level: TraceLevel | null;
  recognised: boolean;
}

/**
 * One task's trace state from `show trace <task>`: a `label: value` line whose label mentions the level
 * and whose value is a documented level, and one whose value says enabled or disabled (true/false,
 * on/off, yes/no). Unverified (see above): an answer without either is `recognised: false`.
 */
export function parseTraceState(output: string): TraceState {
  let level: TraceLevel | null = null;
  let enabled: boolean | null = null;
  for (const line of output.split('\n')) {
    const m = /^\s*([^:]{1,60}):\s*(.*?)\s*$/.exec(line);
    if (!m) continue;
    const label = (m[1] ?? '').toLowerCase();
    const value = m[2] ?? '';
    if (/level/.test(label) && level === null) level = traceLevelOf(value) ?? null;
    else if (/enabled|status|state|trace on/.test(label) && enabled === null) {
      if (/^(true|on|yes|enabled)$/i.test(value)) enabled = true;
      else if (/^(false|off|no|disabled)$/i.test(value)) enabled = false;
    }
  }
  if (enabled === null && level !== null) enabled = true;
  return { enabled, level, recognised: level !== null || enabled !== null };
}
