// One CmDevice record as the tool returns it, and the de-duplication of devices that several nodes
// report: a phone that moved keeps a stale UnRegistered record on its old node (PLATFORM-NOTES.md).
import type { StatusReason } from './status-reasons.ts';
import { statusReason } from './status-reasons.ts';
import type { XmlNode } from './xml-text.ts';
import { child, list, text } from './xml-text.ts';

export interface RisDevice {
  name: string;
  /** The CallManager node that reported this record. */
  node: string;
  status: string;
  status_reason: StatusReason;
  ip_addresses: string[];
  dir_numbers: string[];
  /** RisPort70's model enum number (e.g. 36670); AXL's typemodel names it. */
  model: number | null;
  device_class: string;
  protocol: string;
  description: string;
  login_user_id: string | null;
  active_load: string | null;
  /** When the record last changed, ISO 8601 (the node sends seconds since the epoch). */
  timestamp: string | null;
  timestamp_epoch: number | null;
}

/** Another node's record of a device, kept beside the chosen one so nothing the nodes said is hidden. */
export interface OtherRecord {
  node: string;
  status: string;
  status_reason: number | null;
  timestamp: string | null;
}

export interface MergedDevice extends RisDevice {
  also_reported_by?: OtherRecord[];
  /** Returned by an earlier call of the same query with a less useful record; this one supersedes it. */
  replaces_earlier?: true;
}

const nonEmpty = (s: string | undefined): s is string => s !== undefined && s.trim() !== '';

function numberOr(raw: string | undefined): number | null {
  if (!nonEmpty(raw)) return null;
  const n = Number(raw);
  return Number.isFinite(n) ? n : null;
}

export function normaliseDevice(raw: XmlNode, node: string): RisDevice {
  // RisPort70 lists addresses under IPAddress/item (IPv4 and IPv6); older answers had one IpAddress.
  const ips = list(child(raw, 'IPAddress')?.item)
    .map((i) => text(i, 'IP'))
    .filter(nonEmpty);
  const legacyIp = text(raw, 'IpAddress');
  if (nonEmpty(legacyIp) && !ips.includes(legacyIp)) ips.push(legacyIp);
  // Lines: LinesStatus/item/DirectoryNumber; else DirNumber, "1001-Registered[,1002-UnRegistered]".
  let dns = list(child(raw, 'LinesStatus')?.item)
    .map((l) => text(l, 'DirectoryNumber'))
    .filter(nonEmpty);
  if (dns.length === 0) {
    dns = (text(raw, 'DirNumber') ?? '')
      .split(',')
      .map((d) => d.trim().replace(/-(Registered|UnRegistered|Rejected|PartiallyRegistered|Unknown)$/i, ''))
      .filter(nonEmpty);
  }
  const epoch = numberOr(text(raw, 'TimeStamp'));
  return {
    name: text(raw, 'Name') ?? '',
    node,
    status: text(raw, 'Status') || 'Unknown',
    status_reason: statusReason(text(raw, 'StatusReason')),
    ip_addresses: ips,
    dir_numbers: dns,
    model: numberOr(text(raw, 'Model')),
    device_class: text(raw, 'DeviceClass') || 'Unknown',
    protocol: text(raw, 'Protocol') || 'Unknown',
    description: text(raw, 'Description') ?? '',
    login_user_id: text(raw, 'LoginUserId') || null,
    active_load: text(raw, 'ActiveLoadID') || null,
    timestamp: epoch !== null && epoch > 0 ? new Date(epoch * 1000).toISOString() : null,
    timestamp_epoch: epoch,
  };
}

const STATUS_RANK: Record<string, number> = {
  registered: 4,
  partiallyregistered: 3,
  rejected: 2,
  unregistered: 1,
};

/** How useful a record is: Registered first, then Partially, Rejected, UnRegistered; newest breaks ties. */
export function usefulness(d: RisDevice): number {
  const rank = STATUS_RANK[d.status.toLowerCase()] ?? 0;
  return rank * 1e11 + Math.max(0, Math.min(d.timestamp_epoch ?? 0, 1e11 - 1));
}

function other(d: RisDevice): OtherRecord {
  return { node: d.node, status: d.status, status_reason: d.status_reason.code, timestamp: d.timestamp };
}

/**
 * Collects records page after page and keeps one per device name (case-insensitive, as CUCM names are).
 * `earlier` holds what previous calls of the same query returned: a device comes back only when this
 * record is more useful than the one already given, marked `replaces_earlier`.
 */
export class DeviceMerger {
  readonly #kept = new Map<string, { device: MergedDevice; score: number }>();
  #records = 0;
  #droppedAsEarlier = 0;

  constructor(private readonly earlier: ReadonlyMap<string, number> = new Map()) {}

  add(d: RisDevice): void {
    this.#records++;
    const key = d.name.toUpperCase();
    const score = usefulness(d);
    const known = this.#kept.get(key);
    if (!known) {
      const before = this.earlier.get(key);
      if (before !== undefined && score <= before) {
        this.#droppedAsEarlier++;
        return;
      }
      this.#kept.set(key, {
        device: before !== undefined ? { ...d, replaces_earlier: true } : { ...d },
        score,
      });
      return;
    }
    if (score > known.score) {
      const { also_reported_by: others = [], replaces_earlier: replaces, ...previous } = known.device;
      this.#kept.set(key, {
        device: {
          ...d,
          also_reported_by: [...others, other(previous)],
          ...(replaces ? { replaces_earlier: true } : {}),
        },
        score,
      });
    } else {
      known.device.also_reported_by = [...(known.device.also_reported_by ?? []), other(d)];
    }
  }

  /** Unique devices kept in this answer. */
  get size(): number {
    return this.#kept.size;
  }

  /** Every record read, duplicates included. */
  get records(): number {
    return this.#records;
  }

  /** Records left out because an earlier call already returned the device with a record at least as good. */
  get droppedAsEarlier(): number {
    return this.#droppedAsEarlier;
  }

  devices(): MergedDevice[] {
    return [...this.#kept.values()].map((k) => k.device);
  }

  /** Name to score of what this answer returns, for the next call of the same query. */
  scores(): Map<string, number> {
    return new Map([...this.#kept].map(([k, v]) => [k, v.score]));
  }
}
