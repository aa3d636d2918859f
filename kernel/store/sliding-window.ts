/**
 * Counts events per key in a sliding window (rate limits, authentication failures).
 * The interface is what a shared (Redis) implementation provides (kernel/store/backend/redis-windows.ts);
 * the default is in memory. Every method is asynchronous because a shared store answers over the network;
 * `hit` is one atomic step (check and record together), so two callers never both take the last slot.
 */
export interface SlidingWindowStore {
  /**
   * Records one event for `key` at `now` if fewer than `limit` events are in the window, and says
   * whether it was admitted, how many are now in the window, and when the oldest one leaves it.
   * An event at exactly `now - windowMs` has left the window.
   */
  hit(key: string, windowMs: number, limit: number, now?: number): Promise<WindowResult>;
  /** Events currently in the window, without recording one. */
  count(key: string, windowMs: number, now?: number): Promise<number>;
  reset(key: string): Promise<void>;
}

export interface WindowResult {
  admitted: boolean;
  count: number;
  /** Milliseconds until a slot frees (0 when admitted). */
  retryAfterMs: number;
}

/** Exact sliding window: the timestamps of admitted events, pruned as they age out. */
export class MemorySlidingWindowStore implements SlidingWindowStore {
  private readonly events = new Map<string, number[]>();

  hit(key: string, windowMs: number, limit: number, now = Date.now()): Promise<WindowResult> {
    return Promise.resolve(this.hitNow(key, windowMs, limit, now));
  }

  count(key: string, windowMs: number, now = Date.now()): Promise<number> {
    return Promise.resolve(this.prune(key, windowMs, now).length);
  }

  reset(key: string): Promise<void> {
    this.events.delete(key);
    return Promise.resolve();
  }

  /** Synchronous: the decision and the record happen in one turn of the event loop. */
  private hitNow(key: string, windowMs: number, limit: number, now: number): WindowResult {
    const list = this.prune(key, windowMs, now);
    if (list.length >= limit) {
      // The slot that frees first is the one `limit` places from the end (all of them when the limit
      // was lowered below the events still in the window).
      const oldest = list[list.length - limit] ?? list[0] ?? now;
      return { admitted: false, count: list.length, retryAfterMs: Math.max(1, oldest + windowMs - now) };
    }
    list.push(now);
    this.events.set(key, list);
    return { admitted: true, count: list.length, retryAfterMs: 0 };
  }

  private prune(key: string, windowMs: number, now: number): number[] {
    const list = this.events.get(key) ?? [];
    let drop = 0;
    while (drop < list.length && (list[drop] as number) <= now - windowMs) drop++;
    const kept = drop > 0 ? list.slice(drop) : list;
    if (kept.length === 0) this.events.delete(key);
    else if (drop > 0) this.events.set(key, kept);
    return kept;
  }
}
