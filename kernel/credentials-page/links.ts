import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { RateLimitedError } from '../errors/index.ts';
import type {
  CredentialPageLink,
  CredentialPageRequest,
  CredentialPages,
  CredentialPageState,
} from '../sdk/define.ts';

/** How many links may wait at once, per client and overall, and how long each lives. */
export interface CredentialLinkLimits {
  ttlMs: number;
  perClient: number;
  total: number;
  /** Failed submissions (wrong username format, a store the vault refuses...) before a link is withdrawn. */
  attempts: number;
}

/** Most pending links per client: a person enters credentials one node at a time. */
export const LINKS_PER_CLIENT = 5;
/** Most links held (pending or just submitted): bounds memory whatever the number of clients. */
export const LINKS_TOTAL = 200;
export const LINK_ATTEMPTS = 5;

/** Between the instance's name and the random part of a link's id: never in either, and URL-safe. */
export const LINK_INSTANCE_SEPARATOR = '~';

/** An instance's name as a link carries it: INSTANCE_ID is already safe; a host name is made so. */
export function linkInstanceName(instance: string): string {
  return instance.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 63);
}

/** The instance a link id names (`<instance>~<random>`), or undefined for a link of a single instance. */
export function linkInstance(id: string): string | undefined {
  const at = id.indexOf(LINK_INSTANCE_SEPARATOR);
  return at < 0 ? undefined : id.slice(0, at);
}

/** A link as the page sees it. Only this module changes its state. */
export interface CredentialLink {
  readonly id: string;
  readonly client: string;
  readonly request: CredentialPageRequest;
  readonly expiresAt: number;
  /** The form's CSRF token: tied to this link, compared in constant time. */
  readonly csrf: string;
  state: 'pending' | 'busy' | 'submitted' | 'cancelled';
  failures: number;
  result?: Record<string, unknown>;
}

/** Why a link cannot be used, for the page: unknown (never issued or long gone), expired, used. */
export type LinkLookup =
  { ok: true; link: CredentialLink } | { ok: false; why: 'unknown' | 'expired' | 'used' };

/**
 * The one-time credential links, in memory in the kernel process (a restart forgets them: the person
 * asks the tool again). Each is bound to the client (and tool) that opened it, single use, expiring
 * after `ttlMs`; at most `perClient` wait per client and `total` are held overall, so a flood of tool
 * calls cannot fill memory. A submitted or withdrawn link stays (without its request) until it would
 * have expired, so the tool's next round and a reused link get a clear answer.
 */
export class CredentialLinks {
  readonly #links = new Map<string, CredentialLink>();
  /** Links that are over, kept only to say so: id -> [client, tool, expiry, result]. */
  readonly #done = new Map<
    string,
    { client: string; tool: string; expiresAt: number; result?: Record<string, unknown> }
  >();
  readonly #waiters = new Map<string, Set<() => void>>();

  constructor(
    private readonly limits: CredentialLinkLimits,
    private readonly clock: () => number,
    private readonly baseUrl: () => string,
    /**
     * With a shared store, this instance's name: every link then starts with `<instance>~`, so that a
     * balancer can send the browser's requests for it to the one instance whose memory holds it (the
     * typed password goes straight to the waiting tool, never through the store). Undefined: one
     * instance alone, and links are as they always were.
     */
    private readonly instance: () => string | undefined = () => undefined,
  ) {}

  /** What a tool of `client` sees as ctx.credentialPage. */
  forClient(client: string, argumentsAllowed: boolean): CredentialPages {
    return {
      argumentsAllowed,
      open: (request) => this.open(client, request),
      state: (id, tool) => this.stateOf(client, id, tool),
      wait: (id, tool, timeoutMs, signal) => this.wait(client, id, tool, timeoutMs, signal),
      cancel: (id, tool) => this.cancel(client, id, tool),
    };
  }

  open(client: string, request: CredentialPageRequest): CredentialPageLink {
    this.sweep();
    const now = this.clock();
    const mine = [...this.#links.values()].filter((l) => l.client === client && l.state !== 'submitted');
    if (mine.length >= this.limits.perClient) {
      const wait = Math.min(...mine.map((l) => l.expiresAt)) - now;
      throw new RateLimitedError(
        `${mine.length} credential links are already waiting for client ${client}; submit one, decline it, or let it expire`,
        Math.max(1, Math.ceil(wait / 1000)),
      );
    }
    if (this.#links.size + this.#done.size >= this.limits.total) {
      const all = [...this.#links.values(), ...this.#done.values()].map((l) => l.expiresAt);
      throw new RateLimitedError(
        'too many credential links are open on this server; try again later',
        Math.max(1, Math.ceil((Math.min(...all) - now) / 1000)),
      );
    }
    const owner = this.instance();
    const random = randomBytes(32).toString('base64url');
    const id = owner === undefined ? random : `${linkInstanceName(owner)}${LINK_INSTANCE_SEPARATOR}${random}`;
    const link: CredentialLink = {
      id,
      client,
      request,
      expiresAt: now + this.limits.ttlMs,
      csrf: randomBytes(32).toString('base64url'),
      state: 'pending',
      failures: 0,
    };
    this.#links.set(id, link);
    return { id, url: this.urlOf(id), expiresAt: new Date(link.expiresAt).toISOString() };
  }

  urlOf(id: string): string {
    return `${this.baseUrl().replace(/\/$/, '')}/credentials/enter/${id}`;
  }

  /** The link behind a page request, or why there is none. */
  lookup(id: string): LinkLookup {
    this.sweep();
    const link = this.#links.get(id);
    if (link) return link.state === 'busy' ? { ok: false, why: 'used' } : { ok: true, link };
    if (this.#done.has(id)) return { ok: false, why: 'used' };
    return { ok: false, why: this.#expired.has(id) ? 'expired' : 'unknown' };
  }

  checkCsrf(link: CredentialLink, token: string): boolean {
    const a = createHash('sha256').update(link.csrf).digest();
    const b = createHash('sha256').update(token).digest();
    return timingSafeEqual(a, b);
  }

  /** Claims a pending link for one submission; false when it is no longer pending (a parallel post). */
  begin(link: CredentialLink): boolean {
    if (link.state !== 'pending' || this.#links.get(link.id) !== link) return false;
    link.state = 'busy';
    return true;
  }

  /** The submission stored: the link is used up, and its tool's next round reads `result`. */
  succeed(link: CredentialLink, result: Record<string, unknown>): void {
    this.finish(link, result);
  }

  /** The submission was refused: the link waits again, unless it has failed too often. Returns whether it stays. */
  fail(link: CredentialLink): boolean {
    link.failures += 1;
    if (link.failures >= this.limits.attempts) {
      this.finish(link);
      return false;
    }
    link.state = 'pending';
    return true;
  }

  /** Pending links, for tests and /status-like views: counts only. */
  counts(): { pending: number; done: number } {
    this.sweep();
    return { pending: this.#links.size, done: this.#done.size };
  }

  private stateOf(client: string, id: string, tool: string): CredentialPageState {
    this.sweep();
    const link = this.#links.get(id);
    if (link && link.client === client && link.request.tool === tool)
      return { state: 'pending', url: this.urlOf(id), expiresAt: new Date(link.expiresAt).toISOString() };
    const done = this.#done.get(id);
    if (done && done.client === client && done.tool === tool && done.result)
      return { state: 'submitted', result: done.result };
    return { state: 'gone' };
  }

  private async wait(
    client: string,
    id: string,
    tool: string,
    timeoutMs: number,
    signal: AbortSignal,
  ): Promise<CredentialPageState> {
    const now = this.stateOf(client, id, tool);
    if (now.state !== 'pending' || signal.aborted) return now;
    const link = this.#links.get(id);
    const limit = Math.max(0, Math.min(timeoutMs, (link?.expiresAt ?? 0) - this.clock()));
    await new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        this.#waiters.get(id)?.delete(done);
        resolve();
      };
      const timer = setTimeout(done, limit);
      signal.addEventListener('abort', done, { once: true });
      const set = this.#waiters.get(id) ?? new Set();
      set.add(done);
      this.#waiters.set(id, set);
    });
    return this.stateOf(client, id, tool);
  }

  private cancel(client: string, id: string, tool: string): void {
    const link = this.#links.get(id);
    if (link && link.client === client && link.request.tool === tool && link.state === 'pending')
      this.finish(link);
  }

  private finish(link: CredentialLink, result?: Record<string, unknown>): void {
    link.state = result ? 'submitted' : 'cancelled';
    this.#links.delete(link.id);
    this.#done.set(link.id, {
      client: link.client,
      tool: link.request.tool,
      expiresAt: link.expiresAt,
      ...(result ? { result } : {}),
    });
    this.wake(link.id);
  }

  /** Ids that expired, remembered until twice their lifetime so the page can say "expired". */
  readonly #expired = new Map<string, number>();

  /** Drops what has expired; wakes tools waiting on it. Cost: the links held, at most `total`. */
  private sweep(): void {
    const now = this.clock();
    for (const [id, l] of this.#links) {
      if (l.expiresAt > now) continue;
      this.#links.delete(id);
      if (this.#expired.size < this.limits.total) this.#expired.set(id, l.expiresAt + this.limits.ttlMs);
      this.wake(id);
    }
    for (const [id, d] of this.#done) if (d.expiresAt <= now) this.#done.delete(id);
    for (const [id, until] of this.#expired) if (until <= now) this.#expired.delete(id);
  }

  private wake(id: string): void {
    const set = this.#waiters.get(id);
    this.#waiters.delete(id);
    for (const w of set ?? []) w();
  }
}
