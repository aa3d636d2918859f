import { z } from 'zod';
import type { AuditLog } from '../audit/audit-log.ts';
import type { DocumentStore } from '../store/document-store.ts';
import type { SlidingWindowStore } from '../store/sliding-window.ts';
import { openJsonStore } from './json-store.ts';

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

/**
 * Temporary IP blacklist (spec: IP blacklist state). Failures are counted per IP in a sliding window;
 * reaching the threshold lists the IP for a fixed time. The list is persisted (secrets/ip_blacklist.json)
 * so a restart keeps a block; the failure window is not (a restart forgives failures short of a block).
 */
export class IpBlacklist {
  constructor(
    private readonly store: DocumentStore<BlacklistTable>,
    private readonly window: SlidingWindowStore,
    private readonly audit: AuditLog,
    private readonly settings: BlacklistSettings,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether `ip` is blocked now; an entry found expired is released (and audited) on the way. */
  async check(ip: string): Promise<BlacklistCheck> {
    const entry = this.store.read()[ip];
    if (!entry) return { blocked: false };
    const now = this.now();
    if (entry.until > now) return { blocked: true, retryAfterSeconds: Math.ceil((entry.until - now) / 1000) };
    await this.release([ip], 'next_request');
    return { blocked: false };
  }

  /** Counts one authentication failure; true when it put the IP on the list. */
  async recordFailure(ip: string, client?: string): Promise<boolean> {
    const now = this.now();
    if ((this.store.read()[ip]?.until ?? 0) > now) return false;
    const { windowMs, threshold, durationMs } = this.settings;
    const hit = this.window.hit(`auth-fail:${ip}`, windowMs, threshold, now);
    if (hit.admitted && hit.count < threshold) return false;
    const entry: BlacklistEntry = {
      since: new Date(now).toISOString(),
      until: now + durationMs,
      failures: threshold,
    };
    await this.store.update((t) => ({ ...t, [ip]: entry }));
    this.window.reset(`auth-fail:${ip}`);
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

  private async release(ips: string[], noticedBy: 'next_request' | 'sweep'): Promise<string[]> {
    const now = this.now();
    const released: { ip: string; entry: BlacklistEntry }[] = [];
    // Decided inside the update, so a request and the sweep noticing the same expiry audit it once.
    await this.store.update((t) => {
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

export function openBlacklistStore(path: string): DocumentStore<BlacklistTable> {
  return openJsonStore(path, tableSchema, () => ({}));
}
