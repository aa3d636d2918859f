import type Router from '@koa/router';
import { statusReport } from '../../status/report.ts';
import type { KernelRuntime } from '../../runtime.ts';
import { requireBearer } from '../middleware/bearer-auth.ts';
import { routeLabel } from '../middleware/route-label.ts';
import type { KernelState } from '../state.ts';

/** GET /status (Bearer, any client): the server's current state, each field its real current value. */
export function statusRoutes(router: Router<KernelState>, rt: KernelRuntime): void {
  router.get('/status', routeLabel('/status'), ...requireBearer(rt), (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = statusReport(rt);
  });
}
