import type Router from '@koa/router';
import { PACKAGE_VERSION } from '../../paths.ts';
import type { KernelRuntime } from '../../runtime.ts';
import { requireBearer } from '../middleware/bearer-auth.ts';
import { routeLabel } from '../middleware/route-label.ts';
import type { KernelState } from '../state.ts';

/** GET /status (Bearer, any client): the server's current state, each field its real current value. */
export function statusRoutes(router: Router<KernelState>, rt: KernelRuntime): void {
  router.get('/status', routeLabel('/status'), ...requireBearer(rt), (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const last = rt.lastBackup;
    ctx.body = {
      server: {
        name: rt.config.SERVER_NAME,
        version: PACKAGE_VERSION,
        uptime_seconds: Math.floor((Date.now() - rt.startedAt.getTime()) / 1000),
        started_at: rt.startedAt.toISOString(),
      },
      license: {
        state: rt.license.state,
        tier: rt.license.tier,
        expires_at: rt.license.expiresAt,
        products: rt.license.products,
        reason: rt.license.reason,
      },
      backup: last
        ? { last: { timestamp: last.timestamp, filename: last.filename } }
        : { last: null, message: 'no backup yet' },
      security: { blacklisted_ips: rt.auth.blacklist.activeCount() },
      modules: rt.modules,
      clients: { active: rt.clients.size },
    };
  });
}
