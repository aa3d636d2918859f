// PerfMon counter names and values. A counter's full name is `\\host\Object(instance)\Counter` (or
// without the instance on a single-instance object), as Cisco's session sample builds it
// (CiscoDevNet/serviceability-python-zeep-samples, perfmonPort_collect_session_data.py). Units are not in
// the API: they are read from the counter's name (a percentage, kilobytes, megabytes, or a count).

export interface CounterName {
  host: string;
  object: string;
  instance?: string;
  counter: string;
}

export function counterPath(c: CounterName): string {
  return `\\\\${c.host}\\${c.object}${c.instance !== undefined ? `(${c.instance})` : ''}\\${c.counter}`;
}

/** Reads a full counter name; undefined when it is not one. */
export function parseCounterPath(path: string): CounterName | undefined {
  const m = /^\\\\([^\\]+)\\(.+)\\([^\\]+)$/.exec(path);
  if (!m) return undefined;
  const [, host, objectPart, counter] = m as unknown as [string, string, string, string];
  const inst = /^(.*)\(([^()]*)\)$/.exec(objectPart);
  return inst
    ? { host, object: inst[1] as string, instance: inst[2] as string, counter }
    : { host, object: objectPart, counter };
}

/**
 * "Percentage counters require at least two samples to determine an average sample" (developer.cisco.com,
 * PerfMon Overview, "Single-Transaction Based Performance Monitoring"): a `%` or a `Percentage` in the
 * name says so.
 */
export function needsTwoSamples(counter: string): boolean {
  return counter.includes('%') || /percentage/i.test(counter);
}

export type CounterUnit = 'percent' | 'kilobytes' | 'megabytes' | 'bytes' | 'seconds' | 'count';

export function unitOf(counter: string): CounterUnit {
  if (needsTwoSamples(counter)) return 'percent';
  if (/kbytes/i.test(counter)) return 'kilobytes';
  if (/mbytes/i.test(counter)) return 'megabytes';
  if (/bytes/i.test(counter)) return 'bytes';
  if (/^uptime$|seconds$/i.test(counter)) return 'seconds';
  return 'count';
}

/**
 * CStatus of a value. The WSDL types it unsignedInt and no document we read names the codes: 1 comes
 * with data in a public client's output (sieteunoseis/cisco-perfmon README), 0 is the valid-data code of
 * the performance data helper PerfMon mirrors. Any other code is reported as not valid, with the code.
 */
export function validStatus(cstatus: number): boolean {
  return cstatus === 0 || cstatus === 1;
}
