// A node API's own request budget, counted here so that no request is sent that the node would refuse:
// RisPort70's per-cluster minute, the serviceability APIs' per-node-per-service minute. One window per
// key, shared by every caller of this server (and, with a shared state backend, by every instance of
// it); a node's rate fault blocks the key for a whole window.
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * The window store, shaped like the kernel's sliding-window store (`ctx.kernel.sharedState.windows`):
 * `hit` is one atomic step, so with the shared (Redis) store several instances never exceed a node's
 * budget together. The in-memory default serves one instance (and tests).
 */
export interface WindowStore {
  /** Records an event if fewer than `limit` are in the window; else says when the oldest one leaves it. */
  hit(
    key: string,
    windowMs: number,
    limit: number,
    now?: number,
  ): Promise<{ admitted: boolean; retryAfterMs: number }>;
  count(key: string, windowMs: number, now?: number): Promise<number>;
}

/**
 * Where a node's announced lower limit and its "blocked until" are kept: shaped like the kernel's record
 * store (`ctx.kernel.sharedState.records`), so a node's rate fault or 503 seen by one instance holds
 * back all of them.
 */
export interface LimitStateStore {
  get(key: string): Promise<string | undefined>;
  /** Sets (replaces) the record; it expires `ttlMs` from now. */
  set(key: string, value: string, ttlMs: number): Promise<void>;
}

export class MemoryWindowStore implements WindowStore {
  readonly #events = new Map<string, number[]>();

  hit(
    key: string,
    windowMs: number,
    limit: number,
    now = Date.now(),
  ): Promise<{ admitted: boolean; retryAfterMs: number }> {
    const list = this.#prune(key, windowMs, now);
    if (list.length >= limit) {
      const oldest = list[list.length - limit] ?? list[0] ?? now;
      return Promise.resolve({ admitted: false, retryAfterMs: Math.max(1, oldest + windowMs - now) });
    }
    list.push(now);
    this.#events.set(key, list);
    return Promise.resolve({ admitted: true, retryAfterMs: 0 });
  }

  count(key: string, windowMs: number, now = Date.now()): Promise<number> {
    return Promise.resolve(this.#prune(key, windowMs, now).length);
  }

  #prune(key: string, windowMs: number, now: number): number[] {
    const list = this.#events.get(key) ?? [];
    let drop = 0;
    while (drop < list.length && (list[drop] as number) <= now - windowMs) drop++;
    if (drop === 0) return list;
    const kept = list.slice(drop);
    if (kept.length === 0) this.#events.delete(key);
    else this.#events.set(key, kept);
    return kept;
  }
}

export class MemoryLimitStateStore implements LimitStateStore {
  readonly #records = new Map<string, { value: string; expires: number }>();

  get(key: string): Promise<string | undefined> {
    const r = this.#records.get(key);
    if (r && r.expires <= Date.now()) this.#records.delete(key);
    return Promise.resolve(r && r.expires > Date.now() ? r.value : undefined);
  }

  set(key: string, value: string, ttlMs: number): Promise<void> {
    this.#records.set(key, { value, expires: Date.now() + ttlMs });
    return Promise.resolve();
  }
}

/** The stores a plugin's node limits use: the kernel's shared ones when it hands them over, else memory. */
export interface NodeLimitStores {
  windows: WindowStore;
  states: LimitStateStore;
}

/**
 * The node-limit stores from the kernel's shared state (`ctx.kernel.sharedState`), under `prefix` so a
 * plugin's keys never meet the kernel's or another plugin's; fresh memory stores when there is none.
 */
export function nodeLimitStores(
  shared: { windows: WindowStore; records: LimitStateStore } | undefined,
  prefix: string,
): NodeLimitStores {
  if (!shared) return { windows: new MemoryWindowStore(), states: new MemoryLimitStateStore() };
  return { windows: prefixedWindows(shared.windows, prefix), states: prefixedStates(shared.records, prefix) };
}

export function prefixedWindows(store: WindowStore, prefix: string): WindowStore {
  return {
    hit: (key, windowMs, limit, now) => store.hit(`${prefix}|${key}`, windowMs, limit, now),
    count: (key, windowMs, now) => store.count(`${prefix}|${key}`, windowMs, now),
  };
}

export function prefixedStates(store: LimitStateStore, prefix: string): LimitStateStore {
  return {
    get: (key) => store.get(`${prefix}|${key}`),
    set: (key, value, ttlMs) => store.set(`${prefix}|${key}`, value, ttlMs),
  };
}

/** How long a node's announced lower limit is remembered (an administrator may raise it again). */
const NODE_LIMIT_TTL_MS = 24 * 3600_000;

/** A key's state record: the node's announced lower limit and until when nobody sends (Unix ms). */
interface KeyState {
  limit?: number;
  blockedUntil: number;
}

export interface WindowLimiterOptions {
  /** Requests per window and key. */
  perMinute: number;
  /** Default 60 s; tests shorten it. */
  windowMs?: number;
  /**
   * Added to the window: the node counts arrivals, we count departures, and a request that travels faster
   * than the one a minute before it would otherwise land inside the node's minute. Default 1 s.
   */
  marginMs?: number;
  store?: WindowStore;
  /** The lowered limits and blocks (memory by default; the shared record store with several instances). */
  states?: LimitStateStore;
  /** The coded error of a spent window: `retryAfterSeconds` says when a request fits again. */
  refuse: (key: string, limit: number, retryAfterSeconds: number) => Error;
}

/** When a retry fits, as a clock time the agent can show (seconds are what it waits). */
export function retryHint(seconds: number, now = Date.now()): string {
  const at = new Date(now + seconds * 1000).toISOString().slice(11, 19);
  return `retry in ${seconds} s (after ${at} UTC)`;
}

export class WindowLimiter {
  readonly #limit: number;
  readonly #windowMs: number;
  readonly #store: WindowStore;
  readonly #refuse: WindowLimiterOptions['refuse'];
  /**
   * Per key: a lower limit the node announced in its rate fault (an administrator lowered the
   * parameter), and, after a node's rate fault or busy answer, until when nobody sends (we cannot see
   * who used its budget). Kept in the state store so every instance sees it.
   */
  readonly #states: LimitStateStore;

  constructor(o: WindowLimiterOptions) {
    this.#limit = o.perMinute;
    this.#windowMs = (o.windowMs ?? 60_000) + (o.marginMs ?? 1000);
    this.#store = o.store ?? new MemoryWindowStore();
    this.#states = o.states ?? new MemoryLimitStateStore();
    this.#refuse = o.refuse;
  }

  async #state(key: string): Promise<KeyState> {
    const raw = await this.#states.get(key);
    if (raw === undefined) return { blockedUntil: 0 };
    try {
      const v = JSON.parse(raw) as Partial<KeyState>;
      return {
        ...(typeof v.limit === 'number' && v.limit > 0 ? { limit: v.limit } : {}),
        blockedUntil: typeof v.blockedUntil === 'number' ? v.blockedUntil : 0,
      };
    } catch {
      return { blockedUntil: 0 };
    }
  }

  #limitIn(s: KeyState): number {
    return Math.min(this.#limit, s.limit ?? Infinity);
  }

  async limitOf(key: string): Promise<number> {
    return this.#limitIn(await this.#state(key));
  }

  /** Requests still free in the key's window now. */
  async remaining(key: string): Promise<number> {
    const s = await this.#state(key);
    if (s.blockedUntil > Date.now()) return 0;
    return Math.max(0, this.#limitIn(s) - (await this.#store.count(key, this.#windowMs)));
  }

  /** The key's limit and what is left of it now (one read of its state). */
  async budget(key: string): Promise<{ per_minute: number; remaining: number }> {
    const s = await this.#state(key);
    const limit = this.#limitIn(s);
    if (s.blockedUntil > Date.now()) return { per_minute: limit, remaining: 0 };
    return {
      per_minute: limit,
      remaining: Math.max(0, limit - (await this.#store.count(key, this.#windowMs))),
    };
  }

  /**
   * Takes one request of the key's window, waiting for a free one when that takes at most `maxWaitMs`
   * (a tool call can afford a short wait; a minute would outlast the agent's patience and its timeout).
   * Otherwise throws the `refuse` error saying when to retry. Concurrent callers each re-check after
   * waiting; the take itself is the store's atomic `hit`.
   */
  async acquire(key: string, maxWaitMs: number, signal?: AbortSignal): Promise<void> {
    const deadline = Date.now() + maxWaitMs;
    for (;;) {
      const s = await this.#state(key);
      const limit = this.#limitIn(s);
      const now = Date.now();
      let waitMs: number;
      if (s.blockedUntil > now) waitMs = s.blockedUntil - now;
      else {
        const r = await this.#store.hit(key, this.#windowMs, limit, now);
        if (r.admitted) return;
        waitMs = r.retryAfterMs;
      }
      if (now + waitMs > deadline) throw this.#refuse(key, limit, Math.ceil(waitMs / 1000));
      await sleep(waitMs, undefined, signal ? { signal } : {});
    }
  }

  /**
   * The node answered its rate fault although our window had room: other clients use the same budget.
   * Adopts a lower limit it announced and blocks the key for a whole window. Returns seconds to wait.
   */
  async nodeRefused(key: string, nodeLimit: number | undefined): Promise<number> {
    await this.block(key, this.#windowMs, nodeLimit);
    return Math.ceil(this.#windowMs / 1000);
  }

  /**
   * Nobody sends to the key for `ms` (a node that answered busy asked for it), on every instance that
   * shares the state store; a longer block already recorded is kept. With `nodeLimit`, the lower limit
   * the node announced is adopted too.
   */
  async block(key: string, ms: number, nodeLimit?: number): Promise<void> {
    const s = await this.#state(key);
    const limit = nodeLimit !== undefined && nodeLimit > 0 && nodeLimit < this.#limit ? nodeLimit : s.limit;
    const blockedUntil = Math.max(s.blockedUntil, Date.now() + ms);
    const next: KeyState = { ...(limit !== undefined ? { limit } : {}), blockedUntil };
    const ttl =
      limit !== undefined
        ? Math.max(NODE_LIMIT_TTL_MS, blockedUntil - Date.now())
        : blockedUntil - Date.now();
    await this.#states.set(key, JSON.stringify(next), Math.max(1, ttl));
  }

  /** Until when the key is blocked (Unix ms; 0 or in the past when it is not). */
  async blockedUntil(key: string): Promise<number> {
    return (await this.#state(key)).blockedUntil;
  }
}
