import type Router from '@koa/router';
import { isS256Challenge } from '../../../auth/pkce.ts';
import type { AuthorizationRequest } from '../../../auth/pending-authorizations.ts';
import { acceptedResources, SCOPE } from '../../../auth/urls.ts';
import { matchRedirectUri, redirectUriProblem } from '../../../clients/redirect-uri.ts';
import type { RegisteredClient } from '../../../clients/registry.ts';
import type { KernelRuntime } from '../../../runtime.ts';
import { FormBodyError, readForm, readQuery } from '../../form-body.ts';
import { ipGuard } from '../../middleware/ip-guard.ts';
import { routeLabel } from '../../middleware/route-label.ts';
import type { KernelContext, KernelState } from '../../state.ts';
import { parseScope } from './grants.ts';
import { sendErrorPage, sendLoginPage } from './login-page.ts';

/** Binds a login form to the browser that loaded it (with the form's single-use CSRF token). */
const BROWSER_COOKIE = '__Host-ucmcp-login';

/**
 * GET /authorize validates the request (RFC 6749 4.1.1, PKCE S256 only) and serves the login page;
 * POST /authorize checks the client's credentials and redirects with code, state and iss (RFC 9207).
 * Until the redirect URI is known to be registered, errors are shown, never redirected (RFC 6749 4.1.2.1).
 */
export function authorizeRoutes(router: Router<KernelState>, rt: KernelRuntime): void {
  router.get('/authorize', routeLabel('/authorize'), ipGuard(rt), async (ctx) => {
    const ip = ctx.state.ip;
    const refused = async (reason: string, client?: string) =>
      rt.auth.events.failure({
        status: 'AUTH_FAILED',
        ip,
        reason,
        counts: false,
        path: '/authorize',
        ...(client ? { client_id: client } : {}),
      });
    let q: Map<string, string>;
    try {
      q = readQuery(ctx);
    } catch (err) {
      if (!(err instanceof FormBodyError)) throw err;
      return sendErrorPage(ctx, 400, 'Invalid authorization request', err.message);
    }
    const client = rt.clients.get(q.get('client_id') ?? '');
    if (!client) {
      await refused('unknown_client');
      return sendErrorPage(
        ctx,
        400,
        'Unknown client',
        'client_id does not name a client configured on this server.',
      );
    }
    const only = client.redirectUris.length === 1 ? client.redirectUris[0] : undefined;
    const redirectUri = q.get('redirect_uri') ?? only;
    const malformed = redirectUri === undefined ? null : redirectUriProblem(redirectUri);
    if (malformed !== null) {
      await refused('invalid_redirect_uri', client.name);
      return sendErrorPage(ctx, 400, 'Invalid redirect URI', `invalid_request: redirect_uri ${malformed}.`);
    }
    if (redirectUri === undefined || !matchRedirectUri(redirectUri, client.redirectUris)) {
      await refused('redirect_uri_not_registered', client.name);
      return sendErrorPage(
        ctx,
        400,
        'Redirect URI not registered',
        'The redirect_uri of this request is not registered for the client (AUTH_CLIENTS or client.json).',
      );
    }

    const state = q.get('state') ?? null;
    const fail = async (error: string, description: string) => {
      await refused(`authorize_${error}`, client.name);
      redirectTo(ctx, rt, redirectUri, {
        error,
        error_description: description,
        ...(state !== null ? { state } : {}),
      });
    };
    if (q.get('response_type') !== 'code')
      return fail('unsupported_response_type', 'response_type must be code');
    const challenge = q.get('code_challenge');
    if (!challenge) return fail('invalid_request', 'code_challenge is required (PKCE with S256)');
    if (q.get('code_challenge_method') !== 'S256')
      return fail('invalid_request', 'code_challenge_method must be S256; plain is not supported');
    if (!isS256Challenge(challenge))
      return fail('invalid_request', 'code_challenge is not an S256 challenge');
    const scope = parseScope(q.get('scope'), SCOPE);
    if (scope === null) return fail('invalid_scope', `the only scope is "${SCOPE}"`);
    const resource = q.get('resource') ?? null;
    if (resource !== null && !acceptedResources(rt.auth.urls()).has(resource))
      return fail('invalid_target', 'unknown resource');

    await showLogin(
      ctx,
      rt,
      client,
      { client: client.name, redirectUri, codeChallenge: challenge, resource, scope, state },
      200,
    );
  });

  router.post('/authorize', routeLabel('/authorize'), ipGuard(rt), async (ctx) => {
    const ip = ctx.state.ip;
    let form: Map<string, string>;
    try {
      form = await readForm(ctx, rt.config.HTTP_MAX_BODY_BYTES);
    } catch (err) {
      if (!(err instanceof FormBodyError)) throw err;
      return sendErrorPage(ctx, err.status, 'Invalid form', err.message);
    }
    const csrf = form.get('csrf');
    const request = csrf ? await rt.auth.pending.take(csrf, ctx.cookies.get(BROWSER_COOKIE)) : null;
    const client = request ? rt.clients.get(request.client) : undefined;
    if (!request || !client) {
      await rt.auth.events.failure({
        status: 'AUTH_FAILED',
        ip,
        reason: 'invalid_csrf',
        counts: true,
        path: '/authorize',
      });
      return sendErrorPage(
        ctx,
        400,
        'This sign-in form is no longer valid',
        'It expired, was already used, or was opened in another browser. Start again from your application.',
      );
    }
    const back = (params: Record<string, string>) =>
      redirectTo(ctx, rt, request.redirectUri, {
        ...params,
        ...(request.state !== null ? { state: request.state } : {}),
      });

    if (form.get('decision') === 'deny') {
      await rt.auth.events.failure({
        status: 'AUTH_FAILED',
        ip,
        reason: 'access_denied_by_user',
        counts: false,
        path: '/authorize',
        client_id: client.name,
      });
      return back({ error: 'access_denied', error_description: 'the sign-in was denied' });
    }
    const check = await rt.auth.secrets.check(ip, form.get('client_secret') ?? '', client.secretHash);
    if (check.outcome === 'refused') {
      rt.auth.events.blocked({
        ip,
        path: '/authorize',
        reason: check.reason,
        retry_after_s: check.retryAfterSeconds,
        client_id: client.name,
      });
      ctx.set('Retry-After', String(check.retryAfterSeconds));
      return showLogin(ctx, rt, client, request, 429, `Not checked: ${check.message}.`);
    }
    if (form.get('client_id') !== client.name || check.outcome !== 'valid') {
      await rt.auth.events.failure({
        status: 'AUTH_FAILED',
        ip,
        reason: 'bad_client_credentials',
        counts: true,
        counted: true,
        path: '/authorize',
        client_id: client.name,
      });
      return showLogin(ctx, rt, client, request, 200, 'The client secret is not correct.');
    }

    rt.auth.events.ok({ ip, client: client.name, path: '/authorize', method: 'login_form' });
    const code = await rt.auth.codes.create({
      client: client.name,
      redirectUri: request.redirectUri,
      codeChallenge: request.codeChallenge,
      resource: request.resource,
      scope: request.scope,
    });
    ctx.cookies.set(BROWSER_COOKIE, null, cookieOptions());
    back({ code });
  });
}

async function showLogin(
  ctx: KernelContext,
  rt: KernelRuntime,
  client: RegisteredClient,
  request: AuthorizationRequest,
  status: number,
  error?: string,
): Promise<void> {
  const { csrf, browser } = await rt.auth.pending.create(request);
  ctx.cookies.set(BROWSER_COOKIE, browser, cookieOptions());
  sendLoginPage(ctx, status, {
    serverName: rt.config.SERVER_NAME,
    clientName: client.name,
    profile: client.profile,
    products: client.products,
    redirectUri: request.redirectUri,
    scope: request.scope,
    csrf,
    ...(error ? { error } : {}),
  });
}

function cookieOptions() {
  return { secure: true, httpOnly: true, sameSite: 'strict' as const, path: '/', overwrite: true };
}

/** Redirects to the client with the given parameters plus `iss` (RFC 9207), keeping the URI's own query. */
function redirectTo(
  ctx: KernelContext,
  rt: KernelRuntime,
  redirectUri: string,
  params: Record<string, string>,
): void {
  const target = new URL(redirectUri);
  for (const [k, v] of Object.entries({ ...params, iss: rt.auth.urls().issuer }))
    target.searchParams.set(k, v);
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.status = 302;
  ctx.set('Location', target.href);
  ctx.body = '';
}
