/**
 * Counts events per key in a sliding window (rate limits, authentication failures).
 * The interface is what a shared (Redis) implementation provides (kernel/store/backend/redis-windows.ts);
 * the default is in memory. Every method is asynchronous because a shared store answers over the network;
 * `hit` is one atomic step (check and record together), so two callers never both take the last slot.
 * An admitted event can be taken back (`release`): a slot held while something runs is then counted up
 * front and atomically with every other instance's, and given back if it turns out not to count.
 */
export interface SlidingWindowStore {
  /**
   * Records one event for `key` at `now` if fewer than `limit` events are in the window, and says
   * whether it was admitted, how many are now in the window, and when the oldest one leaves it.
   * An event at exactly `now - windowMs` has left the window.
   */
  hit(key: string, windowMs: number, limit: number, now?: number): Promise<WindowResult>;
  /**
   * Removes the one event an admitted `hit` recorded (its `ticket`), freeing its slot; nothing when it
   * has left the window or the key was reset since.
   */
  release(key: string, ticket: string): Promise<void>;
  /** Events currently in the window, without recording one. */
  count(key: string, windowMs: number, now?: number): Promise<number>;
  reset(key: string): Promise<void>;
}

export interface WindowResult {
  admitted: boolean;
  count: number;
  /** Milliseconds until a slot frees (0 when admitted). */
  retryAfterMs: number;
  /** Names the event recorded, for `release` (admitted only). Opaque to the caller. */
  ticket?: string;
}

interface WindowEvent {
  at: number;
  id: number;
}

/** Exact sliding window: the admitted events (time and ticket), pruned as they age out. */
export class MemorySlidingWindowStore implements SlidingWindowStore {
  private readonly events = new Map<string, WindowEvent[]>();
  private nextId = 0;

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

  release(key: string, ticket: string): Promise<void> {
    const list = this.events.get(key);
    const i = list ? list.findIndex((e) => String(e.id) === ticket) : -1;
    if (list && i >= 0) {
      list.splice(i, 1);
      if (list.length === 0) this.events.delete(key);
    }
    return Promise.resolve();
  }

  /** Synchronous: the decision and the record happen in one turn of the event loop. */
  private hitNow(key: string, windowMs: number, limit: number, now: number): WindowResult {
    const list = this.prune(key, windowMs, now);
    if (list.length >= limit) {
      // The slot that frees first is the one `limit` places from the end (all of them when the limit
      // was lowered below the events still in the window).
      const oldest = (list[list.length - limit] ?? list[0])?.at ?? now;
      return { admitted: false, count: list.length, retryAfterMs: Math.max(1, oldest + windowMs - now) };
    }
    const id = this.nextId++;
    list.push({ at: now, id });
    this.events.set(key, list);
    return { admitted: true, count: list.length, retryAfterMs: 0, ticket: String(id) };
  }

  private prune(key: string, windowMs: number, now: number): WindowEvent[] {
    const list = this.events.get(key) ?? [];
    let drop = 0;
    while (drop < list.length && (list[drop] as WindowEvent).at <= now - windowMs) drop++;
    const kept = drop > 0 ? list.slice(drop) : list;
    if (kept.length === 0) this.events.delete(key);
    else if (drop > 0) this.events.set(key, kept);
    return kept;
  }
}
