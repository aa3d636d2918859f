import Router from '@koa/router';
import Koa from 'koa';
import type { KernelRuntime } from '../runtime.ts';
import { MethodNotAllowedError } from '../errors/index.ts';
import { errorHandler } from './middleware/error-handler.ts';
import { requestContext } from './middleware/request-context.ts';
import { buildTransportPolicy, transportGuard } from './middleware/transport-guard.ts';
import { healthRoutes } from './routes/health.ts';
import { metricsRoutes } from './routes/metrics.ts';
import type { KernelState } from './state.ts';

/** A hook that adds routes (and the middleware they need) to the kernel's router. */
export type RouteInstaller = (router: Router<KernelState>, rt: KernelRuntime) => void;

/**
 * The whole HTTP pipeline, in order. Every request passes, top to bottom:
 * request context -> error handler -> Host/Origin guard -> routes (each protected route adds its own
 * auth middleware from the installers).
 */
export function buildApp(
  rt: KernelRuntime,
  port: number,
  installers: RouteInstaller[] = [],
): Koa<KernelState> {
  const app = new Koa<KernelState>({ proxy: false });
  app.silent = true; // errors are logged by the error handler, never printed raw
  // One spelling per endpoint: paths are case-sensitive (RFC 3986) and a trailing slash is significant,
  // so /MCP, /Token or /token/ are not endpoints (/mcp/ is registered as itself), and what is decided by
  // path (the Host guard's /health, the bearer on /mcp, the error shape of OAuth routes) sees one name.
  const router = new Router<KernelState>({ sensitive: true, strict: true });
  healthRoutes(router, rt.state);
  metricsRoutes(router, rt.metrics);
  for (const install of installers) install(router, rt);

  app.use(requestContext(rt.metrics, rt.config.TRUSTED_PROXIES));
  app.use(errorHandler(rt.log));
  app.use(
    transportGuard(
      buildTransportPolicy({
        listenHost: rt.config.SERVER_HOST,
        port,
        publicBaseUrl: rt.publicBaseUrl,
        extraHosts: rt.config.SERVER_ALLOWED_HOSTS,
        extraOrigins: rt.config.SERVER_ALLOWED_ORIGINS,
      }),
      rt.audit,
      rt.metrics,
    ),
  );
  app.use(router.routes());
  // A method no route implements (PROPFIND, TRACE...) is refused like a wrong one: the router's own
  // 501 is outside the closed set of codes and would surface as INTERNAL_ERROR.
  app.use(
    router.allowedMethods({
      throw: true,
      notImplemented: () => new MethodNotAllowedError('the server does not accept this method'),
    }),
  );
  return app;
}
