import type { KernelMiddleware } from '../state.ts';

/** Labels the request for the HTTP metrics before any later middleware can refuse it. */
export function routeLabel(route: string): KernelMiddleware {
  return async (ctx, next) => {
    ctx.state.route = route;
    await next();
  };
}
