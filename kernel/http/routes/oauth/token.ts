import type Router from '@koa/router';
import type { KernelRuntime } from '../../../runtime.ts';
import { FormBodyError, readForm } from '../../form-body.ts';
import { ipGuard } from '../../middleware/ip-guard.ts';
import { routeLabel } from '../../middleware/route-label.ts';
import type { KernelState } from '../../state.ts';
import { authenticateClient } from './client-auth.ts';
import {
  appFields,
  authorizationCodeGrant,
  clientCredentialsGrant,
  refreshTokenGrant,
  type GrantOutcome,
} from './grants.ts';
import { oauthBlocked, oauthError, oauthJson } from './oauth-response.ts';

const GRANTS = {
  authorization_code: authorizationCodeGrant,
  client_credentials: clientCredentialsGrant,
  refresh_token: refreshTokenGrant,
} as const;

/**
 * POST /token (RFC 6749 section 3.2): authenticates the client, then runs the grant. Answers are
 * RFC 6749 JSON with Cache-Control: no-store. Failed client authentication and invalid grants count
 * toward the IP blacklist.
 */
export function tokenRoutes(router: Router<KernelState>, rt: KernelRuntime): void {
  router.post('/token', routeLabel('/token'), ipGuard(rt, oauthBlocked), async (ctx) => {
    const ip = ctx.state.ip;
    let form: Map<string, string>;
    try {
      form = await readForm(ctx, rt.config.HTTP_MAX_BODY_BYTES);
    } catch (err) {
      if (!(err instanceof FormBodyError)) throw err;
      oauthError(ctx, err.status, 'invalid_request', err.message);
      return;
    }

    const authn = await authenticateClient(ctx, form, rt);
    if (!authn.ok && authn.refused) {
      rt.auth.events.blocked({
        ip,
        path: '/token',
        reason: authn.reason,
        retry_after_s: authn.retryAfterSeconds,
      });
      oauthBlocked(ctx, authn.description, authn.retryAfterSeconds);
      return;
    }
    if (!authn.ok) {
      await rt.auth.events.failure({
        status: 'AUTH_FAILED',
        ip,
        reason: authn.reason,
        counts: authn.reason !== 'missing_client_credentials',
        counted: authn.counted,
        path: '/token',
        ...(authn.named ? { client_id: authn.named } : {}),
      });
      if (authn.status === 401 && authn.basic)
        ctx.set('WWW-Authenticate', `Basic realm="${rt.config.SERVER_NAME}", charset="UTF-8"`);
      oauthError(ctx, authn.status, authn.error, authn.description);
      return;
    }
    const { caller, method } = authn;
    // Who the record names before the grant says more: the configured client, or the application.
    const who =
      caller.kind === 'client'
        ? { client: caller.client.name }
        : { azp: caller.appId, ...appName(rt, caller.appId) };

    const grantType = form.get('grant_type');
    let outcome: GrantOutcome;
    if (!grantType)
      outcome = {
        ok: false,
        error: 'invalid_request',
        description: 'grant_type is required',
        reason: 'missing_grant_type',
      };
    else if (!Object.hasOwn(GRANTS, grantType))
      outcome = {
        ok: false,
        error: 'unsupported_grant_type',
        description: `unsupported grant_type`,
        reason: 'unsupported_grant_type',
      };
    else outcome = await GRANTS[grantType as keyof typeof GRANTS](rt, caller, form);

    if (!outcome.ok) {
      await rt.auth.events.failure({
        status: 'AUTH_FAILED',
        ip,
        ...who,
        reason: outcome.reason,
        counts: outcome.error === 'invalid_grant',
        path: '/token',
        grant_type: grantType ?? 'none',
      });
      oauthError(ctx, 400, outcome.error, outcome.description);
      return;
    }
    rt.auth.events.issued({
      ip,
      client: outcome.client,
      grant_type: grantType as string,
      auth_method: method,
      jti: outcome.jti,
      exp: outcome.exp,
      scope: outcome.scope,
      ...appFields(outcome.app),
    });
    oauthJson(ctx, outcome.body);
  });
}

/** A registered application's name, for the record (a document's is known only from its grants). */
function appName(rt: KernelRuntime, appId: string): { client_app?: string | null } {
  const app = rt.auth.apps.get(appId);
  return app ? { client_app: app.client_name } : {};
}
