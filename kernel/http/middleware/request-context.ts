import { randomUUID } from 'node:crypto';
import type { Metrics } from '../../metrics/metrics.ts';
import { clientIp } from '../client-ip.ts';
import type { KernelMiddleware } from '../state.ts';

/** First middleware: request id, caller address, and the HTTP request counter once the answer is known. */
export function requestContext(metrics: Metrics, trustedProxies: string[]): KernelMiddleware {
  const trusted = new Set(trustedProxies);
  return async (ctx, next) => {
    ctx.state.requestId = randomUUID();
    ctx.state.startedAt = Date.now();
    ctx.state.ip = clientIp(ctx.req.socket.remoteAddress, ctx.get('x-forwarded-for') || undefined, trusted);
    ctx.set('X-Request-Id', ctx.state.requestId);
    try {
      await next();
    } finally {
      metrics.httpRequests.inc({
        method: ctx.method,
        route:
          ctx.state.route ??
          (ctx.status === 404 ? 'unmatched' : ctx.path.startsWith('/mcp') ? '/mcp' : 'other'),
        status: String(ctx.status),
      });
    }
  };
}
