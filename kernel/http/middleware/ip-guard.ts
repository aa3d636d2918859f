import { AuthBlockedError } from '../../errors/index.ts';
import type { KernelRuntime } from '../../runtime.ts';
import type { KernelMiddleware } from '../state.ts';

/**
 * Refuses requests from a blacklisted IP with AUTH_BLOCKED (429, Retry-After) and an audit record.
 * Runs before any credential is looked at, so a blocked caller cannot keep guessing. The address is
 * ctx.state.ip: X-Forwarded-For counts only behind a configured trusted proxy.
 */
export function ipGuard(rt: Pick<KernelRuntime, 'auth' | 'audit'>): KernelMiddleware {
  return async (ctx, next) => {
    const check = await rt.auth.blacklist.check(ctx.state.ip);
    if (check.blocked) {
      rt.audit.write({
        event: 'AUTH',
        status: 'AUTH_BLOCKED',
        ip: ctx.state.ip,
        path: ctx.path,
        retry_after_s: check.retryAfterSeconds,
      });
      throw new AuthBlockedError(
        'too many authentication failures from this address; try again later',
        check.retryAfterSeconds,
      );
    }
    await next();
  };
}
