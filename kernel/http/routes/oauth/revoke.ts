import type Router from '@koa/router';
import { TokenRejected } from '../../../auth/access-tokens.ts';
import type { KernelRuntime } from '../../../runtime.ts';
import { FormBodyError, readForm } from '../../form-body.ts';
import { requireBearer } from '../../middleware/bearer-auth.ts';
import { routeLabel } from '../../middleware/route-label.ts';
import type { KernelContext, KernelState } from '../../state.ts';
import { noStore, oauthError } from './oauth-response.ts';

/**
 * POST /revoke (RFC 7009), Bearer-authenticated. Revokes an access token (its jti goes on the persisted
 * revocation list) or a refresh token (its whole family, with the access tokens issued alongside). A
 * client revokes only its own tokens; anything else is answered 200 as RFC 7009 requires, and audited.
 */
export function revokeRoutes(router: Router<KernelState>, rt: KernelRuntime): void {
  router.post('/revoke', routeLabel('/revoke'), ...requireBearer(rt), async (ctx) => {
    let form: Map<string, string>;
    try {
      form = await readForm(ctx, rt.config.HTTP_MAX_BODY_BYTES);
    } catch (err) {
      if (!(err instanceof FormBodyError)) throw err;
      oauthError(ctx, err.status, 'invalid_request', err.message);
      return;
    }
    const token = form.get('token');
    if (!token) {
      oauthError(ctx, 400, 'invalid_request', 'token is required');
      return;
    }
    const app = ctx.state.client?.app;
    const who: Who = {
      caller: ctx.state.client?.name as string,
      ip: ctx.state.ip,
      ...(app ? { app: app.id, tag: { azp: app.id, client_app: app.name } } : { tag: {} }),
    };
    const hint = form.get('token_type_hint');
    // RFC 7009 2.1: the hint only orders the lookups; an unrecognised hint is ignored.
    const order = hint === 'refresh_token' ? [revokeRefresh, revokeAccess] : [revokeAccess, revokeRefresh];
    let result: Outcome = 'unknown_token';
    for (const attempt of order) {
      result = await attempt(rt, token, who);
      if (result !== 'unknown_token') break;
    }
    if (result !== 'revoked')
      rt.auth.events.revokeRefused({ ip: who.ip, client: who.caller, reason: result, ...who.tag });
    answer(ctx);
  });
}

type Outcome = 'revoked' | 'unknown_token' | 'foreign_token' | 'already_invalid';
/**
 * The caller: a configured client, and the application its token was issued through, if any. A
 * client's own token revokes any of its tokens; an application's revokes only what was granted through it.
 */
interface Who {
  caller: string;
  ip: string;
  app?: string;
  /** Audit fields naming the application. */
  tag: Record<string, unknown>;
}

async function revokeAccess(
  rt: KernelRuntime,
  token: string,
  { caller, ip, app, tag }: Who,
): Promise<Outcome> {
  let claims;
  try {
    claims = await rt.auth.tokens.verify(token);
  } catch (err) {
    if (err instanceof TokenRejected)
      return err.status === 'AUTH_EXPIRED' ? 'already_invalid' : 'unknown_token';
    throw err;
  }
  if (claims.sub !== caller || (app !== undefined && claims.azp !== app)) return 'foreign_token';
  if (rt.auth.revocations.isRevoked(claims.jti)) return 'already_invalid';
  await rt.auth.revocations.revoke([{ jti: claims.jti, exp: claims.exp }]);
  rt.auth.events.revoked({
    ip,
    client: caller,
    reason: 'revocation_request',
    kind: 'access',
    jtis: [claims.jti],
    ...tag,
  });
  return 'revoked';
}

async function revokeRefresh(
  rt: KernelRuntime,
  token: string,
  { caller, ip, app, tag }: Who,
): Promise<Outcome> {
  // Spent, revoked, then dropped: a crash between the steps leaves the family findable by a retry.
  const spent = await rt.auth.refreshTokens.spendFamilyOf(token, caller, app);
  if (spent === 'unknown') return 'unknown_token';
  if (spent === 'foreign') return 'foreign_token';
  await rt.auth.revocations.revoke(spent.revoked);
  await rt.auth.refreshTokens.dropFamily(spent.family);
  rt.auth.events.revoked({
    ip,
    client: caller,
    reason: 'revocation_request',
    kind: 'refresh',
    jtis: spent.revoked.map((f) => f.jti),
    ...tag,
  });
  return 'revoked';
}

function answer(ctx: KernelContext): void {
  noStore(ctx);
  ctx.status = 200;
  ctx.body = '';
}
