// A node API's own request budget, counted here so that no request is sent that the node would refuse:
// RisPort70's per-cluster minute, the serviceability APIs' per-node-per-service minute. One window per
// key, shared by every caller of this server; a node's rate fault blocks the key for a whole window.
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * The window store, shaped like the kernel's sliding-window store (ARCHITECTURE.md, "Beyond one machine")
 * so a shared (Redis) implementation can replace the in-memory default when several servers manage one
 * cluster.
 */
export interface WindowStore {
  /** Records an event if fewer than `limit` are in the window; else says when the oldest one leaves it. */
  hit(
    key: string,
    windowMs: number,
    limit: number,
    now?: number,
  ): { admitted: boolean; retryAfterMs: number };
  count(key: string, windowMs: number, now?: number): number;
}

export class MemoryWindowStore implements WindowStore {
  readonly #events = new Map<string, number[]>();

  hit(
    key: string,
    windowMs: number,
    limit: number,
    now = Date.now(),
  ): { admitted: boolean; retryAfterMs: number } {
    const list = this.#prune(key, windowMs, now);
    if (list.length >= limit) {
      const oldest = list[list.length - limit] ?? now;
      return { admitted: false, retryAfterMs: Math.max(1, oldest + windowMs - now) };
    }
    list.push(now);
    this.#events.set(key, list);
    return { admitted: true, retryAfterMs: 0 };
  }

  count(key: string, windowMs: number, now = Date.now()): number {
    return this.#prune(key, windowMs, now).length;
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
  /** Lower limits the nodes announced in their rate faults (an administrator lowered the parameter). */
  readonly #nodeLimits = new Map<string, number>();
  /** After a node's rate fault nobody sends until the full window has passed: we cannot see who used it. */
  readonly #blockedUntil = new Map<string, number>();

  constructor(o: WindowLimiterOptions) {
    this.#limit = o.perMinute;
    this.#windowMs = (o.windowMs ?? 60_000) + (o.marginMs ?? 1000);
    this.#store = o.store ?? new MemoryWindowStore();
    this.#refuse = o.refuse;
  }

  limitOf(key: string): number {
    return Math.min(this.#limit, this.#nodeLimits.get(key) ?? Infinity);
  }

  /** Requests still free in the key's window now. */
  remaining(key: string): number {
    if ((this.#blockedUntil.get(key) ?? 0) > Date.now()) return 0;
    return Math.max(0, this.limitOf(key) - this.#store.count(key, this.#windowMs));
  }

  /**
   * Takes one request of the key's window, waiting for a free one when that takes at most `maxWaitMs`
   * (a tool call can afford a short wait; a minute would outlast the agent's patience and its timeout).
   * Otherwise throws the `refuse` error saying when to retry. Concurrent callers each re-check after waiting.
   */
  async acquire(key: string, maxWaitMs: number, signal?: AbortSignal): Promise<void> {
    const deadline = Date.now() + maxWaitMs;
    for (;;) {
      const now = Date.now();
      const blocked = this.#blockedUntil.get(key) ?? 0;
      let waitMs: number;
      if (blocked > now) waitMs = blocked - now;
      else {
        const r = this.#store.hit(key, this.#windowMs, this.limitOf(key), now);
        if (r.admitted) return;
        waitMs = r.retryAfterMs;
      }
      if (now + waitMs > deadline) throw this.#refuse(key, this.limitOf(key), Math.ceil(waitMs / 1000));
      await sleep(waitMs, undefined, signal ? { signal } : {});
    }
  }

  /**
   * The node answered its rate fault although our window had room: other clients use the same budget.
   * Adopts a lower limit it announced and blocks the key for a whole window. Returns seconds to wait.
   */
  nodeRefused(key: string, nodeLimit: number | undefined): number {
    if (nodeLimit !== undefined && nodeLimit > 0 && nodeLimit < this.#limit)
      this.#nodeLimits.set(key, nodeLimit);
    this.#blockedUntil.set(key, Date.now() + this.#windowMs);
    return Math.ceil(this.#windowMs / 1000);
  }
}
