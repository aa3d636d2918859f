import { AuthBlockedError } from '../../errors/index.ts';
import type { KernelRuntime } from '../../runtime.ts';
import type { KernelContext, KernelMiddleware } from '../state.ts';
import { loggablePath } from '../loggable-path.ts';

const BLOCKED = 'too many authentication failures from this address; try again later';

/**
 * Refuses requests from a blacklisted IP with AUTH_BLOCKED (429, Retry-After) and an audit record.
 * Runs before any credential is looked at, so a blocked caller cannot keep guessing. The address is
 * ctx.state.ip: X-Forwarded-For counts only behind a configured trusted proxy. `respond` answers in an
 * endpoint's own error shape (the token endpoint's is RFC 6749's); by default the kernel's.
 */
export function ipGuard(
  rt: Pick<KernelRuntime, 'auth'>,
  respond?: (ctx: KernelContext, message: string, retryAfterSeconds: number) => void,
): KernelMiddleware {
  return async (ctx, next) => {
    const check = await rt.auth.blacklist.check(ctx.state.ip);
    if (check.blocked) {
      rt.auth.events.blocked({
        ip: ctx.state.ip,
        path: loggablePath(ctx.path),
        reason: 'ip_blocked',
        retry_after_s: check.retryAfterSeconds,
      });
      if (respond) return respond(ctx, BLOCKED, check.retryAfterSeconds);
      throw new AuthBlockedError(BLOCKED, check.retryAfterSeconds);
    }
    await next();
  };
}
