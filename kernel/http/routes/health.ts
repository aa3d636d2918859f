import type Router from '@koa/router';
import type { StateBackend } from '../../store/backend/state-backend.ts';
import type { KernelState } from '../state.ts';

/** Seconds a balancer is told to wait before asking an instance cut off from the shared store again. */
const STORE_RETRY_AFTER_SECONDS = 2;

/**
 * GET /health: liveness, no auth, no work; safe for load balancers and the container health check.
 * With the local backend the answer is the plain `ok` it always was. With a shared store it says
 * whether this instance reaches it (`state_store`), and is a 503 while it does not: such an instance
 * refuses every request that needs shared state, so a balancer should send them elsewhere.
 */
export function healthRoutes(router: Router<KernelState>, state?: Pick<StateBackend, 'status'>): void {
  router.get('/health', (ctx) => {
    ctx.state.route = '/health';
    ctx.set('Cache-Control', 'no-store');
    const store = state?.status();
    if (!store || store.kind === 'local') {
      ctx.type = 'text/plain';
      ctx.body = 'ok';
      return;
    }
    const stateStore = { kind: store.kind, available: store.available };
    if (store.available) {
      ctx.body = { status: 'ok', state_store: stateStore };
      return;
    }
    ctx.status = 503;
    ctx.set('Retry-After', String(STORE_RETRY_AFTER_SECONDS));
    ctx.body = {
      status: 'unavailable',
      error: 'STATE_STORE_UNAVAILABLE',
      message: 'the shared state store cannot be reached',
      state_store: stateStore,
    };
  });
}
