import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { RateLimitedError } from '../errors/index.ts';
import { fixedKey, type HmacKeySource } from '../keys/shared-hmac-keys.ts';

/** What a download link is for: one client's file, until `expiresAt`. */
export interface LinkGrant {
  scheme: string;
  client: string;
  name: string;
  /** Epoch milliseconds. */
  expiresAt: number;
}

/** Why a presented link was refused (logged; the caller always gets the same NOT_FOUND). */
export type LinkRefusal = 'malformed' | 'forged' | 'expired' | 'used';

/**
 * Links consumed and not yet expired that are remembered at once. Each came from a tool call (itself
 * rate-limited) and is forgotten when it would have expired anyway, so this is reached only by a flood.
 */
export const MAX_REMEMBERED_USES = 100_000;

/** A token's longest form: version, payload (scheme, client, name, expiry, nonce) and MAC. */
const MAX_TOKEN_CHARS = 600;
const PART = /^[A-Za-z0-9_-]+$/;
const VERSION = 'v1';

/**
 * One-time download links. A link is the authorization itself (a browser following it sends no bearer
 * token), so it is unguessable (a 128-bit nonce under an HMAC-SHA256 with a 256-bit key), bound to one
 * client's one file and an expiry, and single use: the first presentation that verifies consumes it.
 * The key is made per process and never stored, so a restart voids every outstanding link; only used
 * links are remembered (until their expiry), so issuing links costs no memory.
 */
export class DownloadLinks {
  /** Nonces of consumed links -> their expiry, in the order consumed (expiries follow within a TTL). */
  private readonly used = new Map<string, number>();

  constructor(
    private readonly clock: () => number,
    private readonly ttlMs: number,
    private readonly maxRemembered = MAX_REMEMBERED_USES,
    /** Per process by default; the instances' shared keys when several serve as one. */
    private readonly keys: HmacKeySource = fixedKey(randomBytes(32)),
    /**
     * Several instances: marks a link's nonce used in the shared store, true for the first marking
     * only (a link verifies on every instance, so single use must be decided by the store).
     */
    private readonly claim?: (nonce: string, ttlMs: number) => Promise<boolean>,
  ) {}

  issue(grant: Omit<LinkGrant, 'expiresAt'>): { token: string; expiresAt: number } {
    const expiresAt = this.clock() + this.ttlMs;
    const payload = Buffer.from(
      JSON.stringify({
        s: grant.scheme,
        c: grant.client,
        n: grant.name,
        e: expiresAt,
        j: randomBytes(16).toString('base64url'),
      }),
    ).toString('base64url');
    return { token: `${VERSION}.${payload}.${this.mac(this.keys.signing(), payload)}`, expiresAt };
  }

  /** Checks a link without using it (a HEAD request, a preview). */
  peek(token: string): LinkGrant | LinkRefusal {
    const v = this.verify(token);
    return typeof v === 'string' ? v : v.grant;
  }

  /** Checks a link and consumes it: a second presentation of the same link is refused. */
  consume(token: string): LinkGrant | LinkRefusal {
    const v = this.verify(token);
    if (typeof v === 'string') return v;
    this.forgetExpired();
    if (this.used.size >= this.maxRemembered) {
      throw new RateLimitedError(
        'too many downloads in the last few minutes; try again later',
        Math.ceil(this.ttlMs / 1000),
      );
    }
    this.used.set(v.nonce, v.grant.expiresAt);
    return v.grant;
  }

  /** `consume`, decided by the shared store too when there is one: used once across all instances. */
  async take(token: string): Promise<LinkGrant | LinkRefusal> {
    if (this.claim) {
      const v = this.verify(token);
      if (typeof v === 'string') return v;
      if (!(await this.claim(v.nonce, Math.max(1, v.grant.expiresAt - this.clock())))) return 'used';
    }
    return this.consume(token);
  }

  private verify(token: string): { grant: LinkGrant; nonce: string } | LinkRefusal {
    if (token.length > MAX_TOKEN_CHARS) return 'malformed';
    const parts = token.split('.');
    if (parts.length !== 3 || parts[0] !== VERSION) return 'malformed';
    const [, payload, mac] = parts as [string, string, string];
    if (!PART.test(payload) || !PART.test(mac)) return 'malformed';
    const got = Buffer.from(mac, 'base64url');
    const match = () =>
      this.keys.verifying().some((k) => {
        const want = Buffer.from(this.mac(k, payload), 'base64url');
        return got.length === want.length && timingSafeEqual(got, want);
      });
    if (!match() && !(this.keys.refresh() && match())) return 'forged';
    const p = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    // Signed by this process: the fields are what issue() wrote.
    const grant: LinkGrant = {
      scheme: String(p.s),
      client: String(p.c),
      name: String(p.n),
      expiresAt: Number(p.e),
    };
    if (!(this.clock() < grant.expiresAt)) return 'expired';
    const nonce = String(p.j);
    if (this.used.has(nonce)) return 'used';
    return { grant, nonce };
  }

  private mac(key: Buffer, payload: string): string {
    return createHmac('sha256', key).update(`${VERSION}.${payload}`).digest('base64url');
  }

  private forgetExpired(): void {
    const now = this.clock();
    for (const [nonce, expiresAt] of this.used) {
      if (expiresAt > now) break;
      this.used.delete(nonce);
    }
  }
}
