import type Router from '@koa/router';
import type { KernelState } from '../state.ts';

/** GET /health: liveness, no auth, no work; safe for load balancers and the container health check. */
export function healthRoutes(router: Router<KernelState>): void {
  router.get('/health', (ctx) => {
    ctx.state.route = '/health';
    ctx.set('Cache-Control', 'no-store');
    ctx.type = 'text/plain';
    ctx.body = 'ok';
  });
}
