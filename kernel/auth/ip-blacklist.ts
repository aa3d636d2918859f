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

/** The limit of a hit that must always be recorded (a failure counts whatever the window holds). */
const ALWAYS = Number.MAX_SAFE_INTEGER;

/**
 * Temporary IP blacklist (spec: IP blacklist state). Failures are counted per IP in a sliding window;
 * reaching the threshold lists the IP for a fixed time. The list is persisted (secrets/ip_blacklist.json)
 * so a restart keeps a block; the failure window is not (a restart forgives failures short of a block).
 *
 * Concurrency, across instances too: an expensive check (a client secret) takes its place as a failure
 * before it runs, in one atomic step of the window store (`hit` on the backend's windows, shared by every
 * instance when the backend is): failures plus checks in flight never exceed the threshold, however the
 * parallel guesses are spread over the instances. A check that succeeds gives its place back (`release`);
 * one whose holder dies stays counted until it ages out (fail closed). Two windows per address:
 * `attempts` (failures and checks in flight: whether a check may run) and `failures` (decided failures
 * only: whether the address is listed), so a check still running, or a lost one, never lists an address.
 * A listing applies from the moment it is decided, not once the file is written, and is recorded and
 * audited once even when several instances decide it at the same time.
 */
export class IpBlacklist {
  private readonly attempts = (ip: string): string => `auth-try:${ip}`;
  private readonly failures = (ip: string): string => `auth-fail:${ip}`;
  /** Listings decided whose write has not completed (or failed: the block still holds in memory). */
  private readonly pending = new Map<string, number>();

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
   * Reserves one failure for a credential check about to run: one atomic hit in the address's attempts
   * window, so of parallel reservations on any number of instances at most `threshold` less the failures
   * already counted are admitted. Refused when the address is listed or the window is full.
   * `settle('succeeded')` gives the reservation back; `settle('failed')` keeps it and counts it toward
   * the listing (await it), after which recordFailure with `counted: true` decides the listing.
   */
  async reserve(ip: string): Promise<FailureReservation> {
    const listed = await this.check(ip);
    if (listed.blocked) return { ok: false, why: 'blocked', retryAfterSeconds: listed.retryAfterSeconds };
    const { windowMs, threshold, durationMs } = this.settings;
    const now = this.now();
    const slot = await this.window.hit(this.attempts(ip), windowMs, threshold, now);
    if (!slot.admitted) {
      // Decided failures alone at the threshold: a listing is on its way (or just made). Otherwise
      // checks in flight fill the window, and they are decided within about one verification.
      const failed = await this.window.count(this.failures(ip), windowMs, now);
      const retryAfterSeconds = failed >= threshold ? Math.ceil(durationMs / 1000) : 1;
      return { ok: false, why: 'threshold', retryAfterSeconds };
    }
    const giveBack = async (): Promise<void> => {
      if (slot.ticket !== undefined) await this.window.release(this.attempts(ip), slot.ticket);
    };
    // Listed by this instance while the hit was on its way: the check must not run.
    const until = this.blockedUntil(ip, this.now());
    if (until > now) {
      await giveBack();
      return { ok: false, why: 'blocked', retryAfterSeconds: Math.ceil((until - now) / 1000) };
    }
    let settled = false;
    return {
      ok: true,
      settle: async (outcome) => {
        if (settled) return;
        settled = true;
        if (outcome === 'succeeded') return giveBack();
        // The place taken stays: it is this failure's in the attempts window. It counts toward the
        // listing too, unless the address was listed meanwhile (failures while listed do not count).
        const at = this.now();
        if (this.blockedUntil(ip, at) <= at)
          await this.window.hit(this.failures(ip), windowMs, threshold, at);
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
    let count: number;
    if (opts.counted) count = await this.window.count(this.failures(ip), windowMs, now);
    else {
      // A failure that reserved nothing (a bad token: cheap to check) also takes a place among the
      // attempts, whatever they hold already, so the secret checks that may still run are fewer.
      const [, failed] = await Promise.all([
        this.window.hit(this.attempts(ip), windowMs, ALWAYS, now),
        this.window.hit(this.failures(ip), windowMs, threshold, now),
      ]);
      count = failed.count;
    }
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
    // Listed inside the update, only if no one listed it already: of several instances (or requests)
    // that decide the listing at once, one records and audits it. `mutate` may run again after a
    // concurrent write, so the flag is set on each run.
    let listed = false;
    await this.store.update((t) => {
      const current = t[ip];
      listed = !(current && current.until > now);
      return listed ? { ...t, [ip]: entry } : t;
    });
    this.pending.delete(ip);
    // The failures that listed the address are used up. Its attempts window stays full until the
    // listing ends (release), so an instance that has not seen the listing yet still refuses checks.
    await this.window.reset(this.failures(ip));
    if (!listed) return false;
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
    // The listings are over: the addresses start again with every attempt free (a listing leaves its
    // attempts taken). Only the instance that released them does this, once.
    await Promise.all(released.map(({ ip }) => this.window.reset(this.attempts(ip))));
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
