// The serviceability APIs' budgets, per node and per API: each VOS node counts the requests of each of
// its SOAP services in its own minute, for every client together (like RisPort70's cluster budget,
// plugins/cucm/ris/rate-limiter.ts). One window per node and API, shared by every caller of this server.
import { ServiceabilityError } from '../../../kernel/sdk/index.ts';
import type { NodeEndpoint } from '../axl/transport.ts';
import type { LimitStateStore, WindowStore } from '../node/window-limiter.ts';
import {
  MemoryLimitStateStore,
  MemoryWindowStore,
  prefixedStates,
  prefixedWindows,
  retryHint,
  WindowLimiter,
} from '../node/window-limiter.ts';
import type { ServiceabilityApi } from './api.ts';

/** A spent budget, ours or the node's: `retryAfterSeconds` says when a request fits again. */
export class ServiceabilityRateLimitError extends ServiceabilityError {
  constructor(
    message: string,
    retryAfterSeconds: number,
    /** 'local': our own window refused before sending; 'node': the node answered its rate fault. */
    readonly source: 'local' | 'node',
  ) {
    super(message, { retryAfterSeconds });
  }
}

export interface NodeServiceLimitsOptions {
  /** Per API name, a lower (or higher) figure than the API's own `perMinute` (tests, a tuned cluster). */
  perMinute?: Record<string, number>;
  /** Default 60 s; tests shorten it. */
  windowMs?: number;
  /** Safety added to the window (see WindowLimiterOptions); default 1 s. */
  marginMs?: number;
  store?: WindowStore;
  /** Lowered limits and blocks per node (memory by default; shared with a shared state backend). */
  states?: LimitStateStore;
}

/** The key of a node's window: the endpoint every client of it reaches. */
export function nodeKey(node: Pick<NodeEndpoint, 'host' | 'port'>): string {
  return `${node.host.toLowerCase()}:${node.port}`;
}

export class NodeServiceLimits {
  readonly #o: NodeServiceLimitsOptions;
  readonly #store: WindowStore;
  readonly #states: LimitStateStore;
  readonly #byApi = new Map<string, WindowLimiter>();

  constructor(o: NodeServiceLimitsOptions = {}) {
    this.#o = o;
    this.#store = o.store ?? new MemoryWindowStore();
    this.#states = o.states ?? new MemoryLimitStateStore();
  }

  /** The limiter of one API; its windows are per node (`nodeKey`). */
  of(api: ServiceabilityApi): WindowLimiter {
    let limiter = this.#byApi.get(api.name);
    if (!limiter) {
      limiter = new WindowLimiter({
        perMinute: this.#o.perMinute?.[api.name] ?? api.perMinute,
        ...(this.#o.windowMs !== undefined ? { windowMs: this.#o.windowMs } : {}),
        ...(this.#o.marginMs !== undefined ? { marginMs: this.#o.marginMs } : {}),
        // Keys are prefixed with the API in the shared store: one node's APIs never share a window.
        store: prefixedWindows(this.#store, api.name),
        states: prefixedStates(this.#states, api.name),
        refuse: (node, limit, seconds) =>
          new ServiceabilityRateLimitError(
            `the ${api.name} budget of ${node} (${limit} requests per minute, shared by all clients of the node) is used up; ${retryHint(seconds)}`,
            seconds,
            'local',
          ),
      });
      this.#byApi.set(api.name, limiter);
    }
    return limiter;
  }

  /** The budget of `api` on `node` now, as answers report it. */
  budget(
    api: ServiceabilityApi,
    node: Pick<NodeEndpoint, 'host' | 'port'>,
  ): Promise<{
    per_minute: number;
    remaining: number;
  }> {
    return this.of(api).budget(nodeKey(node));
  }
}
