// The CDR Repository of the lab's publisher: the CDR and CMR flat files the cluster's call-processing
// nodes write as calls end, named as Cisco's Call Detail Records Administration Guide gives them
// ("CDR Processing", Filename Format: tag_clusterId_nodeId_datetime_seqNumber, datetime the UTC time in
// yyyymmddhhmm, e.g. cdr_Cluster1_01_200404021658_1; Release 12.5(1),
// https://www.cisco.com/c/en/us/td/docs/voice_ip_comm/cucm/service/12_5_1/cdrdef/cucm_b_cdr-admin-guide-1251/cucm_b_cdr-admin-guide-1251_chapter_010.html).
// The files of a minute are a pure function of the minute, so every minute the lab has run (and the two
// days of history before it) has its files without any timer; tests add their own with add(). What a
// file holds (content.ts) is a pure function of it too.
import type { CdrPhone } from './content.ts';
import { callsOf, cdrCsv, cmrCsv } from './content.ts';

export type CdrFileKind = 'cdr' | 'cmr';

export interface CdrFile {
  name: string;
  kind: CdrFileKind;
  /** Minutes since the epoch (UTC) of the file's datetime. */
  minute: number;
  /** The node that wrote it (its cluster node id in the name: 01 the publisher, 02 the next...). */
  node: string;
  /**
   * Whether the repository sent it to the billing servers. get_file_list's third argument false asks
   * for the files that were not (the API reference's "failed to be sent").
   */
  sent: boolean;
  /** What a test-added file holds (any bytes: a hostile file too); generated files compute theirs. */
  content?: string;
}

export interface CdrRepositoryOptions {
  /** The Cluster ID enterprise parameter; StandAloneCluster as shipped. */
  clusterId: string;
  /** The call-processing nodes, publisher first (node ids 01, 02...). */
  nodes: readonly string[];
  /** The phones that call each other. */
  phones: readonly CdrPhone[];
  /** A number that varies the traffic between labs (from the lab's seed). */
  salt: number;
  /** Minutes of history before the lab started. */
  historyMinutes?: number;
  /** When the lab started, epoch ms; default now. */
  startedAt?: number;
  /** The clock, epoch ms; tests move it. */
  now?: () => number;
}

/** `YYYYMMDDHHMM` of an epoch minute, UTC. */
export function cdrDateTime(minute: number): string {
  const d = new Date(minute * 60_000);
  const p = (n: number): string => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}${p(d.getUTCHours())}${p(d.getUTCMinutes())}`;
}

/** An epoch minute from `YYYYMMDDHHMM` (UTC), or undefined for anything else (month 13, day 32...). */
export function cdrMinute(text: string): number | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(text);
  if (!m) return undefined;
  const [y, mo, d, h, mi] = m.slice(1).map(Number) as [number, number, number, number, number];
  const ms = Date.UTC(y, mo - 1, d, h, mi);
  return cdrDateTime(ms / 60_000) === text ? ms / 60_000 : undefined;
}

/** A small deterministic hash of a minute (the traffic of that minute). */
function mix(minute: number, salt: number): number {
  let h = (minute ^ salt) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x45d9f3b) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x45d9f3b) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}

export class CdrRepository {
  readonly clusterId: string;
  readonly #o: CdrRepositoryOptions;
  readonly #first: number;
  readonly #added: CdrFile[] = [];

  constructor(o: CdrRepositoryOptions) {
    this.#o = o;
    this.clusterId = o.clusterId;
    const started = Math.floor((o.startedAt ?? Date.now()) / 60_000);
    this.#first = started - (o.historyMinutes ?? 2 * 24 * 60);
  }

  /** A file a test wants listed (any name: a hostile one too). */
  add(file: CdrFile): void {
    this.#added.push(file);
  }

  /** The files of the minutes from..to (both included), oldest first; the current minute is still open. */
  between(from: number, to: number): CdrFile[] {
    const now = Math.floor((this.#o.now?.() ?? Date.now()) / 60_000);
    const out: CdrFile[] = [];
    for (let m = Math.max(from, this.#first); m <= Math.min(to, now - 1); m++) out.push(...this.#of(m));
    out.push(...this.#added.filter((f) => f.minute >= from && f.minute <= to));
    return out.sort((a, b) => a.minute - b.minute || a.name.localeCompare(b.name));
  }

  /** The file of that name the repository holds (within its history, not in the future), if any. */
  find(name: string): CdrFile | undefined {
    const added = this.#added.find((f) => f.name === name);
    if (added) return added;
    const m = /^(cdr|cmr)_.+_\d{2}_(\d{12})_\d+$/.exec(name);
    const minute = m ? cdrMinute(m[2] as string) : undefined;
    return minute === undefined ? undefined : this.between(minute, minute).find((f) => f.name === name);
  }

  /** The file's bytes: the calls that ended in its minute on its node, as CDRs or CMRs. */
  content(file: CdrFile): string {
    if (file.content !== undefined) return file.content;
    const h = mix(file.minute, this.#o.salt);
    const nodeIndex = this.#o.nodes.indexOf(file.node);
    const calls = callsOf(file.minute, h, nodeIndex + 1, this.#o.phones);
    return file.kind === 'cdr' ? cdrCsv(calls, this.clusterId) : cmrCsv(calls, this.clusterId);
  }

  /**
   * The files one minute produced: most minutes some calls end somewhere in the cluster, and the node
   * that handled them writes one CDR file and one CMR file (Diagnostics enabled); about one minute in
   * seventeen the push to the billing server failed.
   */
  #of(minute: number): CdrFile[] {
    const h = mix(minute, this.#o.salt);
    if (h % 4 === 0) return [];
    const index = (h >>> 8) % this.#o.nodes.length;
    const nodeId = String(index + 1).padStart(2, '0');
    const seq = minute - this.#first + 1;
    const sent = mix(minute, this.#o.salt ^ 0x5bd1e995) % 17 !== 0;
    const stamp = cdrDateTime(minute);
    const node = this.#o.nodes[index] as string;
    return (['cdr', 'cmr'] as const).map((kind) => ({
      name: `${kind}_${this.clusterId}_${nodeId}_${stamp}_${seq}`,
      kind,
      minute,
      node,
      sent,
    }));
  }
}
