import { TokenRejected } from '../../auth/access-tokens.ts';
import type { AuthFailureStatus } from '../../auth/auth-events.ts';
import { REGISTERED_APP_ID } from '../../auth/registered-apps.ts';
import type { AuthServices } from '../../auth/services.ts';
import { AuthExpiredError, AuthFailedError, AuthRevokedError, type KernelError } from '../../errors/index.ts';
import type { KernelRuntime } from '../../runtime.ts';
import { ipGuard } from './ip-guard.ts';
import type { KernelContext, KernelMiddleware } from '../state.ts';

/** RFC 6750 b64token, the only thing a Bearer credential may be. */
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

/** No credentials at all: nothing was invalid, something is missing (what an MCP client probes with). */
const TOKEN_REQUIRED = 'a Bearer token is required';

const MESSAGES: Record<AuthFailureStatus, string> = {
  AUTH_FAILED: 'the access token is invalid',
  AUTH_EXPIRED: 'the access token has expired',
  AUTH_REVOKED: 'the access token has been revoked',
};

/**
 * Bearer authentication (RFC 6750) for /status, /revoke and /mcp: verifies the JWT against the current
 * server key, refuses revoked tokens and tokens of clients no longer configured, and sets
 * ctx.state.client. Every outcome is an AUTH audit record; refusals carry a WWW-Authenticate header
 * pointing at the protected-resource metadata, which is how an MCP client discovers OAuth.
 */
export function bearerAuth(rt: Pick<KernelRuntime, 'auth' | 'clients'>): KernelMiddleware {
  return async (ctx, next) => {
    const { auth } = rt;
    const header = ctx.get('authorization');
    const ip = ctx.state.ip;
    const fail = async (
      status: AuthFailureStatus,
      reason: string,
      opts: { client?: string; counts?: boolean; extra?: Record<string, unknown> } = {},
    ) => {
      const { client, counts = true, extra = {} } = opts;
      await auth.events.failure({
        status,
        ip,
        reason,
        counts,
        path: ctx.path,
        ...(client ? { client } : {}),
        ...extra,
      });
      setChallenge(ctx, auth, header === '' ? undefined : status);
      return header === '' ? new AuthFailedError(TOKEN_REQUIRED) : errorFor(status);
    };

    if (header === '') throw await fail('AUTH_FAILED', 'missing_token', { counts: false });
    const space = header.indexOf(' ');
    const scheme = space < 0 ? header : header.slice(0, space);
    const token = space < 0 ? '' : header.slice(space + 1).trim();
    if (scheme.toLowerCase() !== 'bearer') throw await fail('AUTH_FAILED', 'not_bearer');
    if (token !== '' && !B64TOKEN.test(token)) throw await fail('AUTH_FAILED', 'malformed');

    let claims;
    try {
      claims = await auth.tokens.verify(token);
    } catch (err) {
      if (!(err instanceof TokenRejected)) throw err;
      // Expired tokens were ours once: not a sign of guessing, so they do not count toward the blacklist.
      throw await fail(err.status, err.reason, {
        ...(err.client ? { client: err.client } : {}),
        counts: err.status !== 'AUTH_EXPIRED',
      });
    }
    if (auth.revocations.isRevoked(claims.jti))
      throw await fail('AUTH_REVOKED', 'revoked', { client: claims.sub, counts: false });
    const client = rt.clients.get(claims.sub);
    // A client no longer configured is not an identified caller: named in the record, not as `client`.
    if (!client) throw await fail('AUTH_FAILED', 'unknown_client', { extra: { subject: claims.sub } });
    const app = claims.azp !== undefined ? { id: claims.azp, name: claims.client_app ?? null } : undefined;
    const appTag = app ? { azp: app.id, client_app: app.name } : {};
    // A registered application removed by the operator, or expired, takes its tokens with it.
    if (app && REGISTERED_APP_ID.test(app.id) && !auth.apps.get(app.id))
      throw await fail('AUTH_REVOKED', 'app_removed', { client: client.name, counts: false, extra: appTag });

    ctx.state.client = {
      name: client.name,
      profile: client.profile,
      products: [...client.products],
      jti: claims.jti,
      scope: claims.scope,
      ...(app ? { app } : {}),
    };
    const ok = { ip, client: client.name, jti: claims.jti, path: ctx.path, ...appTag };
    if (ctx.state.holdAuthRecord) {
      await auth.events.okHolding(ok, next);
      return;
    }
    auth.events.ok(ok);
    await next();
  };
}

/** RFC 6750 section 3: no error code when the request carried no credentials at all. */
function setChallenge(ctx: KernelContext, auth: AuthServices, status: AuthFailureStatus | undefined): void {
  const metadata = `resource_metadata="${auth.urls().resourceMetadata}"`;
  ctx.set(
    'WWW-Authenticate',
    status === undefined
      ? `Bearer ${metadata}`
      : `Bearer error="invalid_token", error_description="${MESSAGES[status]}", ${metadata}`,
  );
}

function errorFor(status: AuthFailureStatus): KernelError {
  switch (status) {
    case 'AUTH_EXPIRED':
      return new AuthExpiredError(MESSAGES.AUTH_EXPIRED);
    case 'AUTH_REVOKED':
      return new AuthRevokedError(MESSAGES.AUTH_REVOKED);
    default:
      return new AuthFailedError(MESSAGES.AUTH_FAILED);
  }
}

/** The chain every protected endpoint uses (/status, /revoke, /mcp): blacklist check, then bearer auth. */
export function requireBearer(rt: Pick<KernelRuntime, 'auth' | 'clients' | 'audit'>): KernelMiddleware[] {
  return [ipGuard(rt), bearerAuth(rt)];
}
