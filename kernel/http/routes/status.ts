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
    // Where the shared state lives and whether this instance reaches it (never a password). Not in
    // infra_server_status, whose output schema is closed.
    ctx.body = { ...statusReport(rt), state_store: { ...rt.state.status(), instance: rt.state.instance } };
  });
}
