/**
 * Counts events per key in a sliding window (rate limits, authentication failures).
 * The interface is what a shared (Redis) implementation must provide; the default is in memory.
 */
export interface SlidingWindowStore {
  /**
   * Records one event for `key` at `now` if fewer than `limit` events are in the window, and says
   * whether it was admitted, how many are now in the window, and when the oldest one leaves it.
   */
  hit(key: string, windowMs: number, limit: number, now?: number): WindowResult;
  /** Events currently in the window, without recording one. */
  count(key: string, windowMs: number, now?: number): number;
  reset(key: string): void;
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

  hit(key: string, windowMs: number, limit: number, now = Date.now()): WindowResult {
    const list = this.prune(key, windowMs, now);
    if (list.length >= limit) {
      const oldest = list[0] ?? now;
      return { admitted: false, count: list.length, retryAfterMs: Math.max(1, oldest + windowMs - now) };
    }
    list.push(now);
    this.events.set(key, list);
    return { admitted: true, count: list.length, retryAfterMs: 0 };
  }

  count(key: string, windowMs: number, now = Date.now()): number {
    return this.prune(key, windowMs, now).length;
  }

  reset(key: string): void {
    this.events.delete(key);
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
