import { createHash, type KeyObject } from 'node:crypto';

/**
 * Entries kept at most. Only tokens this server signed can enter, so the bound is met only by that many
 * live tokens in use at once; each entry is a digest and a few short claims (well under 1 KB).
 */
export const VERIFIED_TOKEN_CACHE_MAX = 10_000;

/**
 * Everything a verification depended on besides the token bytes. A cached result is valid only under
 * the context it was obtained in: a new key (rotation, even in-process) or a new issuer/audience empties
 * the cache before anything is served from it.
 */
export interface VerificationContext {
  key: KeyObject;
  kid: string;
  issuer: string;
  audience: string;
}

/**
 * Results of signature and claims verification, by SHA-256 of the token (the token itself is never
 * held), each served only while now < its exp and under the context it was verified in. Least recently
 * used entries go first once the bound is reached. Only successes are stored: a refusal is recomputed
 * every time. What can change while a token is unexpired and validly signed (revocation, the client
 * still configured, the application still registered, the caller's address) is not cached here: the
 * callers check it on every use, as they did before this cache existed.
 */
export class VerifiedTokenCache<T extends { readonly exp: number }> {
  private readonly entries = new Map<string, Readonly<T>>();
  private context: VerificationContext | undefined;

  constructor(
    private readonly now: () => number,
    private readonly max: number = VERIFIED_TOKEN_CACHE_MAX,
  ) {}

  /** The cached result for `token` under `context`, or undefined (absent, expired, other context). */
  get(token: string, context: VerificationContext): Readonly<T> | undefined {
    this.bind(context);
    const key = digestOf(token);
    const hit = this.entries.get(key);
    if (hit === undefined) return undefined;
    this.entries.delete(key);
    // From exp on, full verification decides (it applies the clock tolerance and names the expiry).
    if (this.now() >= hit.exp * 1000) return undefined;
    this.entries.set(key, hit);
    return hit;
  }

  /**
   * Stores a successful verification obtained under `context`. Dropped if the context changed while it
   * was being verified (a key replaced mid-flight must not let a result of the old key in).
   */
  set(token: string, context: VerificationContext, value: T): void {
    if (this.context === undefined) this.bind(context);
    else if (!sameContext(this.context, context)) return;
    if (this.now() >= value.exp * 1000) return;
    const key = digestOf(token);
    this.entries.delete(key);
    this.entries.set(key, Object.freeze({ ...value }));
    while (this.entries.size > this.max) {
      const oldest = this.entries.keys().next();
      if (oldest.done === true) break;
      this.entries.delete(oldest.value);
    }
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  /** The keys held (digests), for inspection. */
  digests(): string[] {
    return [...this.entries.keys()];
  }

  private bind(context: VerificationContext): void {
    if (this.context !== undefined && sameContext(this.context, context)) return;
    this.entries.clear();
    this.context = { ...context };
  }
}

/** The cache key of a token: SHA-256 of its bytes, base64url. */
export function digestOf(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('base64url');
}

function sameContext(a: VerificationContext, b: VerificationContext): boolean {
  return a.key === b.key && a.kid === b.kid && a.issuer === b.issuer && a.audience === b.audience;
}
