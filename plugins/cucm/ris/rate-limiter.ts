// The cluster's RisPort70 budget: the node allows 15 requests per minute for the whole cluster, whoever
// sends them, and answers an AxisFault past that (PLATFORM-NOTES.md). One window per cluster, shared by
// every caller of this server, so that no request is sent that the node would refuse.
import { setTimeout as sleep } from 'node:timers/promises';
import { RisRateLimitError, retryHint } from './errors.ts';

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

export interface ClusterRateLimiterOptions {
  /** Requests per window; default 15, the node's default (the enterprise parameter allows up to 18). */
  perMinute?: number;
  /** Default 60 s; tests shorten it. */
  windowMs?: number;
  /**
   * Added to the window: the node counts arrivals, we count departures, and a request that travels faster
   * than the one a minute before it would otherwise land inside the node's minute. Default 1 s.
   */
  marginMs?: number;
  store?: WindowStore;
}

export class ClusterRateLimiter {
  readonly #limit: number;
  readonly #windowMs: number;
  readonly #store: WindowStore;
  /** Lower limits the nodes announced in their rate faults (an administrator lowered the parameter). */
  readonly #nodeLimits = new Map<string, number>();
  /** After a node's rate fault nobody sends until the full window has passed: we cannot see who used it. */
  readonly #blockedUntil = new Map<string, number>();

  constructor(o: ClusterRateLimiterOptions = {}) {
    this.#limit = o.perMinute ?? 15;
    this.#windowMs = (o.windowMs ?? 60_000) + (o.marginMs ?? 1000);
    this.#store = o.store ?? new MemoryWindowStore();
  }

  limitOf(cluster: string): number {
    return Math.min(this.#limit, this.#nodeLimits.get(cluster) ?? Infinity);
  }

  /** Requests still free in the cluster's window now. */
  remaining(cluster: string): number {
    if ((this.#blockedUntil.get(cluster) ?? 0) > Date.now()) return 0;
    return Math.max(0, this.limitOf(cluster) - this.#store.count(cluster, this.#windowMs));
  }

  /**
   * Takes one request of the cluster's window, waiting for a free one when that takes at most `maxWaitMs`
   * (a tool call can afford a short wait; a minute would outlast the agent's patience and its timeout).
   * Otherwise throws RisRateLimitError saying when to retry. Concurrent callers each re-check after waiting.
   */
  async acquire(cluster: string, maxWaitMs: number, signal?: AbortSignal): Promise<void> {
    const deadline = Date.now() + maxWaitMs;
    for (;;) {
      const now = Date.now();
      const blocked = this.#blockedUntil.get(cluster) ?? 0;
      let waitMs: number;
      if (blocked > now) waitMs = blocked - now;
      else {
        const r = this.#store.hit(cluster, this.#windowMs, this.limitOf(cluster), now);
        if (r.admitted) return;
        waitMs = r.retryAfterMs;
      }
      if (now + waitMs > deadline) {
        const seconds = Math.ceil(waitMs / 1000);
        throw new RisRateLimitError(
          `the RisPort70 budget of this cluster (${this.limitOf(cluster)} requests per minute, shared by all clients) is used up; ${retryHint(seconds)}`,
          seconds,
          'local',
        );
      }
      await sleep(waitMs, undefined, signal ? { signal } : {});
    }
  }

  /**
   * The node answered its rate fault although our window had room: other tools use the same cluster.
   * Adopts a lower limit it announced and blocks the cluster for a whole window. Returns seconds to wait.
   */
  nodeRefused(cluster: string, nodeLimit: number | undefined): number {
    if (nodeLimit !== undefined && nodeLimit > 0 && nodeLimit < this.#limit)
      this.#nodeLimits.set(cluster, nodeLimit);
    this.#blockedUntil.set(cluster, Date.now() + this.#windowMs);
    return Math.ceil(this.#windowMs / 1000);
  }
}
