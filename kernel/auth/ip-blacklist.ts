import { z } from 'zod';
import type { AuditLog } from '../audit/audit-log.ts';
import type { StateBackend } from '../store/backend/state-backend.ts';
import type { DocumentStore } from '../store/document-store.ts';
import type { SlidingWindowStore } from '../store/sliding-window.ts';
import { openJsonDocument, openJsonStore } from './json-store.ts';

const entrySchema = z.object({
  /** When the IP was listed (ISO 8601) and until when (Unix milliseconds). */
  since: z.string(),
  until: z.number(),
  failures: z.number(),
});
type BlacklistEntry = z.output<typeof entrySchema>;
type BlacklistTable = Record<string, BlacklistEntry>;
const tableSchema = z.record(z.string(), entrySchema);

export interface BlacklistSettings {
  threshold: number;
  windowMs: number;
  durationMs: number;
}

export type BlacklistCheck = { blocked: false } | { blocked: true; retryAfterSeconds: number };

/** A failure counted in advance for a credential check about to run; settled once it has run. */
export type FailureReservation =
  | { ok: true; settle(outcome: 'failed' | 'succeeded'): Promise<void> }
  | { ok: false; why: 'blocked' | 'threshold'; retryAfterSeconds: number };

/**
 * Temporary IP blacklist (spec: IP blacklist state). Failures are counted per IP in a sliding window;
 * reaching the threshold lists the IP for a fixed time. The list is persisted (secrets/ip_blacklist.json)
 * so a restart keeps a block; the failure window is not (a restart forgives failures short of a block).
 *
 * Concurrency: an expensive check (a client secret) reserves its failure before it runs, so parallel
 * guesses cannot all be evaluated before the first of them is counted: failures in the window plus
 * checks in flight never exceed the threshold. A listing applies from the moment it is decided, not
 * once the file is written. Reservations are per instance; the failure window is the state backend's,
 * shared by every instance when the backend is.
 */
export class IpBlacklist {
  private readonly key = (ip: string): string => `auth-fail:${ip}`;
  /** Listings decided whose write has not completed (or failed: the block still holds in memory). */
  private readonly pending = new Map<string, number>();
  /** Credential checks in flight per address, each already counted as a failure. */
  private readonly reserved = new Map<string, number>();
  /** The last reservation decision under way per address: the next one waits for it. */
  private readonly deciding = new Map<string, Promise<void>>();

  constructor(
    private readonly store: DocumentStore<BlacklistTable>,
    private readonly window: SlidingWindowStore,
    private readonly audit: AuditLog,
    private readonly settings: BlacklistSettings,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether `ip` is blocked now; an entry found expired is released (and audited) on the way. */
  async check(ip: string): Promise<BlacklistCheck> {
    const now = this.now();
    const until = this.blockedUntil(ip, now);
    if (until > now) return { blocked: true, retryAfterSeconds: Math.ceil((until - now) / 1000) };
    if (this.store.read()[ip]) await this.release([ip], 'next_request');
    return { blocked: false };
  }

  /**
   * Reserves one failure for a credential check about to run. The decisions for one address are taken
   * one after the other, in arrival order (the failure count may come from a shared store, so a decision
   * waits): no other request of this instance can slip in between a decision and its reservation.
   * Refused when the address is listed or when its failures plus the checks already in flight reach the
   * threshold. `settle('succeeded')` gives the reservation back; `settle('failed')` turns it into a
   * counted failure (await it), after which recordFailure with `counted: true` decides the listing.
   */
  reserve(ip: string): Promise<FailureReservation> {
    const previous = this.deciding.get(ip) ?? Promise.resolve();
    const mine = previous.then(() => this.decide(ip));
    const done = mine.then(
      () => undefined,
      () => undefined,
    );
    this.deciding.set(ip, done);
    void done.then(() => {
      if (this.deciding.get(ip) === done) this.deciding.delete(ip);
    });
    return mine;
  }

  private async decide(ip: string): Promise<FailureReservation> {
    const now = this.now();
    const until = this.blockedUntil(ip, now);
    if (until > now) return { ok: false, why: 'blocked', retryAfterSeconds: Math.ceil((until - now) / 1000) };
    const { windowMs, threshold, durationMs } = this.settings;
    const failures = await this.window.count(this.key(ip), windowMs, now);
    const inFlight = this.reserved.get(ip) ?? 0;
    if (failures + inFlight >= threshold) {
      // Failures alone at the threshold: a listing is on its way. Otherwise the checks in flight
      // decide within about one verification.
      const retryAfterSeconds = failures >= threshold ? Math.ceil(durationMs / 1000) : 1;
      return { ok: false, why: 'threshold', retryAfterSeconds };
    }
    this.reserved.set(ip, inFlight + 1);
    const giveBack = (): void => {
      const left = (this.reserved.get(ip) ?? 1) - 1;
      if (left > 0) this.reserved.set(ip, left);
      else this.reserved.delete(ip);
    };
    let settled = false;
    return {
      ok: true,
      settle: async (outcome) => {
        if (settled) return;
        settled = true;
        giveBack();
        const at = this.now();
        if (outcome === 'failed' && this.blockedUntil(ip, at) <= at)
          await this.window.hit(this.key(ip), windowMs, threshold, at);
      },
    };
  }

  /**
   * Counts one authentication failure (or, with `counted`, one a settled reservation already counted)
   * and lists the IP when the failures reach the threshold; true when this call listed it.
   */
  async recordFailure(ip: string, client?: string, opts: { counted?: boolean } = {}): Promise<boolean> {
    const now = this.now();
    if (this.blockedUntil(ip, now) > now) return false;
    const { windowMs, threshold, durationMs } = this.settings;
    const count = opts.counted
      ? await this.window.count(this.key(ip), windowMs, now)
      : (await this.window.hit(this.key(ip), windowMs, threshold, now)).count;
    // Another request may have decided the listing while the count was on its way.
    if (this.blockedUntil(ip, this.now()) > now) return false;
    if (count < threshold) return false;
    const entry: BlacklistEntry = {
      since: new Date(now).toISOString(),
      until: now + durationMs,
      failures: threshold,
    };
    // Decided now: the failures that arrive while the file is written are refused, not counted again.
    this.pending.set(ip, entry.until);
    await this.window.reset(this.key(ip));
    await this.store.update((t) => ({ ...t, [ip]: entry }));
    this.pending.delete(ip);
    this.audit.write({
      event: 'AUTH',
      status: 'IP_BLACKLISTED',
      ip,
      ...(client ? { client } : {}),
      failures: threshold,
      window_seconds: Math.round(windowMs / 1000),
      until: new Date(entry.until).toISOString(),
    });
    return true;
  }

  /** Releases every expired entry (the periodic sweep); resolves to the released IPs. */
  async sweep(): Promise<string[]> {
    const now = this.now();
    const expired = Object.entries(this.store.read())
      .filter(([, e]) => e.until <= now)
      .map(([ip]) => ip);
    return expired.length === 0 ? [] : this.release(expired, 'sweep');
  }

  /** IPs blocked right now. */
  activeCount(): number {
    const now = this.now();
    return Object.values(this.store.read()).filter((e) => e.until > now).length;
  }

  /** Until when `ip` is blocked (Unix ms; in the past when it is not), pending listings included. */
  private blockedUntil(ip: string, now: number): number {
    const pending = this.pending.get(ip);
    if (pending !== undefined && pending <= now) this.pending.delete(ip);
    return Math.max(pending ?? 0, this.store.read()[ip]?.until ?? 0);
  }

  private async release(ips: string[], noticedBy: 'next_request' | 'sweep'): Promise<string[]> {
    const now = this.now();
    let released: { ip: string; entry: BlacklistEntry }[] = [];
    // Decided inside the update, so a request and the sweep noticing the same expiry audit it once
    // (with a shared store, across instances too; `mutate` may run again after a concurrent write).
    await this.store.update((t) => {
      released = [];
      for (const ip of ips) {
        const entry = t[ip];
        if (entry && entry.until <= now) {
          released.push({ ip, entry });
          delete t[ip];
        }
      }
      return t;
    });
    for (const { ip, entry } of released) {
      this.audit.write({
        event: 'AUTH',
        status: 'IP_RELEASED',
        ip,
        blocked_since: entry.since,
        expired_at: new Date(entry.until).toISOString(),
        noticed_by: noticedBy,
      });
    }
    return released.map((r) => r.ip);
  }
}

/** The table on the state backend (`ip-blacklist`; the file with the local backend). */
export function openBlacklistStoreOn(
  state: StateBackend,
  path: string,
): Promise<DocumentStore<BlacklistTable>> {
  return openJsonDocument(state, 'ip-blacklist', tableSchema, () => ({}), { file: path });
}

export function openBlacklistStore(path: string): DocumentStore<BlacklistTable> {
  return openJsonStore(path, tableSchema, () => ({}));
}
