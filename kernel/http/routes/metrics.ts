import type Router from '@koa/router';
import type { Metrics } from '../../metrics/metrics.ts';
import type { KernelState } from '../state.ts';

/** GET /metrics: Prometheus text exposition, no auth, never queries a managed node. */
export function metricsRoutes(router: Router<KernelState>, metrics: Metrics): void {
  router.get('/metrics', async (ctx) => {
    ctx.state.route = '/metrics';
    ctx.set('Cache-Control', 'no-store');
    ctx.type = metrics.contentType;
    ctx.body = await metrics.exposition();
  });
}
