import type Router from '@koa/router';
import { validateAppMetadata } from '../../../auth/app-metadata.ts';
import type { RegisteredApp } from '../../../auth/registered-apps.ts';
import { SCOPE } from '../../../auth/urls.ts';
import type { KernelRuntime } from '../../../runtime.ts';
import { FormBodyError, readCapped } from '../../form-body.ts';
import { ipGuard } from '../../middleware/ip-guard.ts';
import { routeLabel } from '../../middleware/route-label.ts';
import type { KernelContext, KernelState } from '../../state.ts';
import { noStore, oauthBlocked, oauthError, type OAuthErrorCode } from './oauth-response.ts';

/** Far above any real registration (ten redirect URIs and a name), far below HTTP_MAX_BODY_BYTES. */
export const REGISTRATION_MAX_BODY_BYTES = 16_384;

/**
 * POST /register: RFC 7591 dynamic client registration, for public clients only (PKCE, no secret).
 * A registered application is never an identity: its users still sign in as a configured client at the
 * login page. Registrations are bounded in number (refused when full, nothing evicted), rate-limited
 * per address, audited; the operator lists and removes them with `oauth_apps`.
 */
export function registerRoutes(router: Router<KernelState>, rt: KernelRuntime): void {
  router.post('/register', routeLabel('/register'), ipGuard(rt, oauthBlocked), async (ctx) => {
    const ip = ctx.state.ip;
    const refuse = (status: number, error: OAuthErrorCode, description: string, reason: string): void => {
      rt.auth.events.app('APP_REGISTRATION_REFUSED', { ip, reason, error });
      oauthError(ctx, status, error, description);
    };

    const { perIp, windowMs } = rt.auth.settings.registration;
    const hit = await rt.auth.registrationWindow.hit(`register:${ip}`, windowMs, perIp, rt.clock());
    if (!hit.admitted) {
      rt.auth.events.app('APP_REGISTRATION_REFUSED', { ip, reason: 'rate_limited' });
      return rateLimited(ctx, perIp, windowMs, hit.retryAfterMs);
    }

    const type = (ctx.get('content-type').split(';')[0] ?? '').trim().toLowerCase();
    if (type !== 'application/json')
      return refuse(400, 'invalid_client_metadata', 'the body must be application/json', 'not_json');
    const max = Math.min(REGISTRATION_MAX_BODY_BYTES, rt.config.HTTP_MAX_BODY_BYTES);
    let raw: Buffer;
    try {
      if (Number(ctx.get('content-length') || '0') > max) {
        ctx.set('Connection', 'close');
        throw new FormBodyError(413, `the body is larger than ${max} bytes`);
      }
      raw = await readCapped(ctx, max);
    } catch (err) {
      if (!(err instanceof FormBodyError)) throw err;
      return refuse(err.status, 'invalid_client_metadata', err.message, 'body_too_large');
    }
    let body: unknown;
    try {
      body = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(raw));
    } catch {
      return refuse(400, 'invalid_client_metadata', 'the body is not JSON', 'not_json');
    }
    const valid = validateAppMetadata(body);
    if (!valid.ok) return refuse(400, valid.problem.error, valid.problem.description, valid.problem.error);

    const r = await rt.auth.apps.register(valid.metadata, ip);
    for (const app of r.expired)
      rt.auth.events.app('APP_EXPIRED', {
        azp: app.client_id,
        client_app: app.client_name,
        last_used_at: new Date(app.last_used_at).toISOString(),
      });
    if (!r.ok)
      return refuse(
        403,
        'access_denied',
        `this server holds its maximum of ${r.count} registered applications (OAUTH_MAX_REGISTERED_CLIENTS); ` +
          'an operator must remove one (oauth_apps remove) or wait for an unused one to expire',
        'registrations_full',
      );
    rt.auth.events.app('APP_REGISTERED', {
      ip,
      azp: r.app.client_id,
      client_app: r.app.client_name,
      redirect_uris: r.app.redirect_uris,
    });
    noStore(ctx);
    ctx.status = 201;
    ctx.type = 'application/json';
    ctx.body = registrationResponse(r.app);
  });
}

/** RFC 7591 section 3.2.1: the client_id and the metadata as registered (no secret: a public client). */
function registrationResponse(app: RegisteredApp): Record<string, unknown> {
  return {
    client_id: app.client_id,
    client_id_issued_at: Math.floor(app.registered_at / 1000),
    ...(app.client_name !== null ? { client_name: app.client_name } : {}),
    redirect_uris: app.redirect_uris,
    grant_types: app.grant_types,
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    scope: SCOPE,
  };
}

function rateLimited(ctx: KernelContext, perIp: number, windowMs: number, retryAfterMs: number): void {
  noStore(ctx);
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  ctx.status = 429;
  ctx.set('Retry-After', String(seconds));
  ctx.type = 'application/json';
  ctx.body = {
    error: 'RATE_LIMITED',
    error_description: `at most ${perIp} registrations per address within ${windowMs / 1000} s; try again in ${seconds} s`,
  };
}
