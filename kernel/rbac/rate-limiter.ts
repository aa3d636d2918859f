import { RateLimitedError } from '../errors/index.ts';
import type { PluginModule, Service } from '../sdk/types.ts';
import type { SlidingWindowStore } from '../store/sliding-window.ts';
import type { RateWindow } from './policy.ts';

/** Per client x module x service sliding-window limits (functional spec, Limits). */
export class RateLimiter {
  constructor(
    private readonly store: SlidingWindowStore,
    private readonly now: () => number,
  ) {}

  /**
   * Records one call, or throws RateLimitedError with the seconds until a slot frees. One atomic `hit`
   * (check and record together), so parallel calls, on this instance or others, never exceed the limit.
   */
  async take(client: string, module: PluginModule, service: Service, window: RateWindow): Promise<void> {
    const r = await this.store.hit(
      `rate|${client}|${module}|${service}`,
      window.windowSeconds * 1000,
      window.limit,
      this.now(),
    );
    if (!r.admitted) {
      throw new RateLimitedError(
        `rate limit of ${window.limit} ${service} calls per ${window.windowSeconds} s exceeded for ${module}`,
        Math.ceil(r.retryAfterMs / 1000),
      );
    }
  }

  /** Calls still available in the current window (for infra_get_my_permissions). */
  async remaining(
    client: string,
    module: PluginModule,
    service: Service,
    window: RateWindow,
  ): Promise<number> {
    const used = await this.store.count(
      `rate|${client}|${module}|${service}`,
      window.windowSeconds * 1000,
      this.now(),
    );
    return Math.max(0, window.limit - used);
  }
}
