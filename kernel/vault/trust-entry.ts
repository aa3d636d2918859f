// What a trust decision does to a host's entry in a trust store (SSH host keys, HTTPS certificates),
// and the per-host listing, shared by both stores so that trusting and rejecting mean the same in each.
import type { Product } from './identity.ts';
import type { VaultAudit } from './vault-types.ts';

interface Seen {
  fingerprint: string;
  at: string;
}

export interface TrustEntry<S extends Seen, R extends Seen> {
  pinned?: S;
  pending?: S;
  rejected: R[];
}

/**
 * The entry after `action` on `fp`: trust pins `pin` and clears what was pending; reject forgets the
 * pinned or pending one it names and remembers `reject`, the newest `maxRejected` kept.
 */
export function decidedEntry<S extends Seen, R extends Seen, E extends TrustEntry<S, R>>(
  entry: E,
  fp: string,
  action: 'trust' | 'reject',
  pin: S,
  reject: R,
  maxRejected: number,
): E {
  const next: E = { ...entry, rejected: entry.rejected.filter((r) => r.fingerprint !== fp) };
  if (action === 'trust') {
    next.pinned = pin;
    delete next.pending;
  } else {
    if (next.pinned?.fingerprint === fp) delete next.pinned;
    if (next.pending?.fingerprint === fp) delete next.pending;
    next.rejected = [...next.rejected, reject].slice(-maxRejected);
  }
  return next;
}

/** One status per `<product>/<host>` slot of a store (or one product's), sorted by product and host. */
export function statusesOf<E, T extends { product: Product; host: string }>(
  hosts: Record<string, E>,
  only: Product | undefined,
  status: (product: Product, host: string, entry: E) => T,
): T[] {
  const out: T[] = [];
  for (const [slot, entry] of Object.entries(hosts)) {
    const i = slot.indexOf('/');
    const p = slot.slice(0, i) as Product;
    if (only === undefined || p === only) out.push(status(p, slot.slice(i + 1), entry));
  }
  return out.sort((a, b) => `${a.product}/${a.host}`.localeCompare(`${b.product}/${b.host}`));
}

/** Who decided what about which host, as every TRUSTED record of a trust store carries it. */
export interface DecisionSubject {
  client: string;
  product: Product;
  host: string;
  /** The store, where a record must say it (HTTPS certificates; SSH host keys say nothing). */
  kind?: string;
}

/**
 * Audits a trust decision, then saves it with `save`. Audit first: if the record cannot be written the
 * audit log throws and nothing is saved. If saving fails, the OK record announced a decision that was
 * not kept: a FAILED record, with no `action` (nothing is trusted or rejected now), says so, and the
 * save's error is thrown.
 */
export function auditedDecision(
  audit: VaultAudit,
  subject: DecisionSubject,
  action: 'trust' | 'reject',
  fp: string,
  save: () => void,
): void {
  const base = { event: 'TRUSTED' as const, ...subject };
  audit.write({
    ...base,
    action: action === 'trust' ? 'trusted' : 'rejected',
    status: 'OK',
    fingerprint: fp,
  });
  try {
    save();
  } catch (err) {
    try {
      audit.write({ ...base, status: 'FAILED', requested: action, fingerprint: fp, reason: 'write_failed' });
    } catch {
      // The OK record is already written; the error below tells the caller nothing was saved.
    }
    throw err;
  }
}
