import type Router from '@koa/router';
import { isS256Challenge } from '../../../auth/pkce.ts';
import type { AuthorizationRequest } from '../../../auth/pending-authorizations.ts';
import { REGISTERED_APP_ID } from '../../../auth/registered-apps.ts';
import { acceptedResources, SCOPE } from '../../../auth/urls.ts';
import { matchRedirectUri, redirectUriProblem } from '../../../clients/redirect-uri.ts';
import type { KernelRuntime } from '../../../runtime.ts';
import { FormBodyError, readForm, readQuery } from '../../form-body.ts';
import { ipGuard } from '../../middleware/ip-guard.ts';
import { routeLabel } from '../../middleware/route-label.ts';
import type { KernelContext, KernelState } from '../../state.ts';
import { resolveRequester } from './authorize-requester.ts';
import { appFields, parseScope } from './grants.ts';
import { sendErrorPage, sendLoginPage, type LoginView } from './login-page.ts';

/** Binds a login form to the browser that loaded it (with the form's single-use CSRF token). */
const BROWSER_COOKIE = '__Host-ucmcp-login';

/**
 * GET /authorize validates the request (RFC 6749 4.1.1, PKCE S256 only) and serves the login page;
 * POST /authorize checks the client's credentials and redirects with code, state and iss (RFC 9207).
 * Until the redirect URI is known to be registered, errors are shown, never redirected (RFC 6749 4.1.2.1).
 *
 * The requester is a configured client asking for itself, or an application (registered, or known by
 * its metadata document), which is never an identity: the person signs in as one of the configured
 * clients, whose profile and products the tokens carry, and the application is recorded beside it.
 */
export function authorizeRoutes(router: Router<KernelState>, rt: KernelRuntime): void {
  router.get('/authorize', routeLabel('/authorize'), ipGuard(rt), async (ctx) => {
    const ip = ctx.state.ip;
    const refused = async (reason: string, tag: Record<string, unknown> = {}) =>
      rt.auth.events.failure({
        status: 'AUTH_FAILED',
        ip,
        reason,
        counts: false,
        path: '/authorize',
        ...tag,
      });
    let q: Map<string, string>;
    try {
      q = readQuery(ctx);
    } catch (err) {
      if (!(err instanceof FormBodyError)) throw err;
      return sendErrorPage(ctx, 400, 'Invalid authorization request', err.message);
    }
    const who = await resolveRequester(rt, q.get('client_id') ?? '', ip);
    if (!who.ok) {
      await refused(who.reason, who.azp !== undefined ? { azp: who.azp } : {});
      if (who.retryAfterSeconds !== undefined) ctx.set('Retry-After', String(who.retryAfterSeconds));
      return sendErrorPage(ctx, who.status, who.title, who.message);
    }
    const tag = who.kind === 'client' ? { client_id: who.client.name } : appFields(who.app);
    const only = who.redirectUris.length === 1 ? who.redirectUris[0] : undefined;
    const redirectUri = q.get('redirect_uri') ?? only;
    const malformed = redirectUri === undefined ? null : redirectUriProblem(redirectUri);
    if (malformed !== null) {
      await refused('invalid_redirect_uri', tag);
      return sendErrorPage(ctx, 400, 'Invalid redirect URI', `invalid_request: redirect_uri ${malformed}.`);
    }
    if (redirectUri === undefined || !matchRedirectUri(redirectUri, who.redirectUris)) {
      await refused('redirect_uri_not_registered', tag);
      return sendErrorPage(
        ctx,
        400,
        'Redirect URI not registered',
        who.kind === 'client'
          ? 'The redirect_uri of this request is not registered for the client (AUTH_CLIENTS or client.json).'
          : "The redirect_uri of this request is not one of the application's redirect_uris.",
      );
    }

    const state = q.get('state') ?? null;
    const fail = async (error: string, description: string) => {
      await refused(`authorize_${error}`, tag);
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

    if (who.kind === 'app') await rt.auth.apps.touch(who.app.id);
    await showLogin(
      ctx,
      rt,
      {
        client: who.kind === 'client' ? who.client.name : null,
        app: who.kind === 'app' ? who.app : null,
        redirectUri,
        codeChallenge: challenge,
        resource,
        scope,
        state,
      },
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
    // A configured client asking for itself: that client. An application: whoever the person names.
    const fixed = request?.client ? rt.clients.get(request.client) : undefined;
    if (!request || (request.app === null && !fixed)) {
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
    const tag = appFields(request.app);
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
        ...(fixed ? { client_id: fixed.name } : {}),
        ...tag,
      });
      return back({ error: 'access_denied', error_description: 'the sign-in was denied' });
    }
    const typed = form.get('client_id') ?? '';
    const client = fixed ?? rt.clients.get(typed);
    // An unknown name is still checked at full cost (and counted): no answer tells names apart.
    const check = await rt.auth.secrets.check(ip, form.get('client_secret') ?? '', client?.secretHash);
    const named = client ? { client_id: client.name } : {};
    if (check.outcome === 'refused') {
      rt.auth.events.blocked({
        ip,
        path: '/authorize',
        reason: check.reason,
        retry_after_s: check.retryAfterSeconds,
        ...named,
        ...tag,
      });
      ctx.set('Retry-After', String(check.retryAfterSeconds));
      return showLogin(ctx, rt, request, 429, `Not checked: ${check.message}.`);
    }
    if (!client || typed !== client.name || check.outcome !== 'valid') {
      await rt.auth.events.failure({
        status: 'AUTH_FAILED',
        ip,
        reason: 'bad_client_credentials',
        counts: true,
        counted: true,
        path: '/authorize',
        ...named,
        ...tag,
      });
      const wrong = fixed ? 'The client secret is not correct.' : 'The client name or secret is not correct.';
      return showLogin(ctx, rt, request, 200, wrong);
    }

    rt.auth.events.ok({ ip, client: client.name, path: '/authorize', method: 'login_form', ...tag });
    const code = await rt.auth.codes.create({
      client: client.name,
      redirectUri: request.redirectUri,
      codeChallenge: request.codeChallenge,
      resource: request.resource,
      scope: request.scope,
      app: request.app,
    });
    if (request.app) await rt.auth.apps.touch(request.app.id);
    ctx.cookies.set(BROWSER_COOKIE, null, cookieOptions());
    back({ code });
  });
}

async function showLogin(
  ctx: KernelContext,
  rt: KernelRuntime,
  request: AuthorizationRequest,
  status: number,
  error?: string,
): Promise<void> {
  const { csrf, browser } = await rt.auth.pending.create(request);
  ctx.cookies.set(BROWSER_COOKIE, browser, cookieOptions());
  const client = request.client ? rt.clients.get(request.client) : undefined;
  const asking: Pick<LoginView, 'client' | 'app'> = request.app
    ? {
        app: {
          ...request.app,
          source: REGISTERED_APP_ID.test(request.app.id) ? 'registered' : 'document',
        },
      }
    : client
      ? { client: { name: client.name, profile: client.profile, products: client.products } }
      : {};
  sendLoginPage(ctx, status, {
    serverName: rt.config.SERVER_NAME,
    ...asking,
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
