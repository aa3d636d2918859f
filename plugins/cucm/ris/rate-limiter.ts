// The cluster's RisPort70 budget: the node allows 15 requests per minute for the whole cluster, whoever
// sends them, and answers an AxisFault past that (PLATFORM-NOTES.md). One window per cluster, shared by
// every caller of this server (the shared window limiter, plugins/_shared/node/window-limiter.ts).
import type { LimitStateStore, WindowStore } from '../../_shared/node/window-limiter.ts';
import { WindowLimiter } from '../../_shared/node/window-limiter.ts';
import { RisRateLimitError, retryHint } from './errors.ts';

export type { WindowStore } from '../../_shared/node/window-limiter.ts';
export { MemoryWindowStore } from '../../_shared/node/window-limiter.ts';

export interface ClusterRateLimiterOptions {
  /** Requests per window; default 15, the node's default (the enterprise parameter allows up to 18). */
  perMinute?: number;
  /** Default 60 s; tests shorten it. */
  windowMs?: number;
  /** Safety added to the window (see WindowLimiterOptions); default 1 s. */
  marginMs?: number;
  store?: WindowStore;
  /** Lowered limits and blocks per cluster (memory by default; shared with a shared state backend). */
  states?: LimitStateStore;
}

export class ClusterRateLimiter extends WindowLimiter {
  constructor(o: ClusterRateLimiterOptions = {}) {
    super({
      perMinute: o.perMinute ?? 15,
      ...(o.windowMs !== undefined ? { windowMs: o.windowMs } : {}),
      ...(o.marginMs !== undefined ? { marginMs: o.marginMs } : {}),
      ...(o.store ? { store: o.store } : {}),
      ...(o.states ? { states: o.states } : {}),
      refuse: (_cluster, limit, seconds) =>
        new RisRateLimitError(
          `the RisPort70 budget of this cluster (${limit} requests per minute, shared by all clients) is used up; ${retryHint(seconds)}`,
          seconds,
          'local',
        ),
    });
  }
}
