// Time and names of the CDR repository: the API's YYYYMMDDHHMM (UTC) minutes, a requested span cut into
// the one-hour windows the API accepts, and a CDR/CMR file name read back into its parts
// (tag_clusterId_nodeId_datetime_seqNumber: Call Detail Records Administration Guide 12.5(1), "CDR
// Processing", Filename Format). A name is the node's text: one that does not parse is kept as 'other'.
import { CDR_MAX_WINDOW_MINUTES } from './api.ts';

/** Minutes since the epoch of a Date (UTC), seconds dropped. */
export function minuteOf(date: Date): number {
  return Math.floor(date.getTime() / 60_000);
}

/** `YYYYMMDDHHMM` (UTC) of an epoch minute. */
export function cdrTime(minute: number): string {
  const d = new Date(minute * 60_000);
  const p = (n: number): string => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}${p(d.getUTCHours())}${p(d.getUTCMinutes())}`;
}

/** The epoch minute of `YYYYMMDDHHMM` (UTC); undefined unless it is a real date and time. */
export function parseCdrTime(text: string): number | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(text);
  if (!m) return undefined;
  const [y, mo, d, h, mi] = m.slice(1).map(Number) as [number, number, number, number, number];
  const minute = Date.UTC(y, mo - 1, d, h, mi) / 60_000;
  return cdrTime(minute) === text ? minute : undefined;
}

/** ISO 8601 (UTC) of an epoch minute, for answers. */
export function isoMinute(minute: number): string {
  return new Date(minute * 60_000).toISOString().replace(':00.000Z', 'Z');
}

export interface Window {
  from: number;
  to: number;
}

/** [from, to] cut into consecutive windows of at most the API's hour, in order. */
export function windowsOf(from: number, to: number, size = CDR_MAX_WINDOW_MINUTES): Window[] {
  const out: Window[] = [];
  for (let start = from; start < to; start += size) out.push({ from: start, to: Math.min(start + size, to) });
  return out;
}

export interface CdrFileName {
  name: string;
  kind: 'cdr' | 'cmr' | 'other';
  cluster_id?: string;
  node_id?: string;
  /** The file's datetime, ISO 8601 UTC. */
  time?: string;
  /** Epoch minute of the datetime (not in answers: ordering and continuation). */
  minute?: number;
  sequence?: number;
}

/** A file name read into its parts; the cluster id may itself hold underscores, so it is read from both ends. */
export function parseFileName(name: string): CdrFileName {
  const m = /^(cdr|cmr)_(.+)_(\d{2,3})_(\d{12})_(\d{1,12})$/.exec(name);
  const minute = m ? parseCdrTime(m[4] as string) : undefined;
  if (!m || minute === undefined) return { name, kind: 'other' };
  return {
    name,
    kind: m[1] as 'cdr' | 'cmr',
    cluster_id: m[2] as string,
    node_id: m[3] as string,
    time: isoMinute(minute),
    minute,
    sequence: Number(m[5]),
  };
}
