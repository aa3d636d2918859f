import { verifyS256 } from '../../../auth/pkce.ts';
import { acceptedResources, SCOPE } from '../../../auth/urls.ts';
import type { RegisteredClient } from '../../../clients/registry.ts';
import type { KernelRuntime } from '../../../runtime.ts';
import type { OAuthErrorCode } from './oauth-response.ts';

export type GrantOutcome =
  | { ok: true; body: Record<string, unknown>; jti: string; exp: number; scope: string }
  | { ok: false; error: OAuthErrorCode; description: string; reason: string };

type Rt = Pick<KernelRuntime, 'auth' | 'keys'>;

const refuse = (error: OAuthErrorCode, description: string, reason: string): GrantOutcome => ({
  ok: false,
  error,
  description,
  reason,
});

/** authorization_code with PKCE (S256): the code must match client, redirect URI, verifier and resource. */
export async function authorizationCodeGrant(
  rt: Rt,
  client: RegisteredClient,
  form: Map<string, string>,
): Promise<GrantOutcome> {
  const code = form.get('code');
  const redirectUri = form.get('redirect_uri');
  const verifier = form.get('code_verifier');
  if (!code || !redirectUri || !verifier)
    return refuse(
      'invalid_request',
      'code, redirect_uri and code_verifier are required',
      'missing_parameter',
    );

  const redeemed = await rt.auth.codes.redeem(code);
  if (!redeemed.ok) {
    if (redeemed.reason === 'reused') {
      // A code presented twice was intercepted: what the first use obtained is revoked (RFC 6749 4.1.2).
      const revoked = [...redeemed.issued];
      for (const i of redeemed.issued)
        if (i.family) revoked.push(...(await rt.auth.refreshTokens.revokeFamily(i.family)));
      await rt.auth.revocations.revoke(revoked);
      if (revoked.length > 0)
        rt.auth.events.revoked({
          client: client.name,
          reason: 'code_reused',
          jtis: [...new Set(revoked.map((r) => r.jti))],
        });
    }
    return refuse(
      'invalid_grant',
      'the authorization code is invalid, expired or already used',
      `code_${redeemed.reason}`,
    );
  }
  const b = redeemed.binding;
  if (b.client !== client.name)
    return refuse('invalid_grant', 'the code was issued to another client', 'code_client_mismatch');
  if (b.redirectUri !== redirectUri)
    return refuse(
      'invalid_grant',
      'redirect_uri differs from the authorization request',
      'redirect_uri_mismatch',
    );
  if (!verifyS256(verifier, b.codeChallenge))
    return refuse('invalid_grant', 'PKCE verification failed', 'pkce_failed');
  const resource = form.get('resource');
  if (
    resource !== undefined &&
    ((b.resource !== null && resource !== b.resource) || !acceptedResources(rt.auth.urls()).has(resource))
  )
    return refuse('invalid_target', 'resource differs from the authorization request', 'resource_mismatch');

  const out = await issueWithRefresh(rt, client, b.scope);
  await rt.auth.codes.recordIssued(redeemed.key, { jti: out.jti, exp: out.exp, family: out.family });
  return out.outcome;
}

/** client_credentials: the client acts as itself; no refresh token (it can always authenticate again). */
export async function clientCredentialsGrant(
  rt: Rt,
  client: RegisteredClient,
  form: Map<string, string>,
): Promise<GrantOutcome> {
  const scope = parseScope(form.get('scope'), SCOPE);
  if (scope === null) return refuse('invalid_scope', `the only scope is "${SCOPE}"`, 'invalid_scope');
  const resource = form.get('resource');
  if (resource !== undefined && !acceptedResources(rt.auth.urls()).has(resource))
    return refuse('invalid_target', 'unknown resource', 'invalid_target');
  const ttl = rt.auth.settings.accessTokenTtlSeconds;
  const { token, jti, exp } = await rt.auth.tokens.issue(client.name, scope, ttl);
  return {
    ok: true,
    jti,
    exp,
    scope,
    body: { access_token: token, token_type: 'Bearer', expires_in: ttl, scope },
  };
}

/** refresh_token: spends the presented token and returns a new pair in the same family. */
export async function refreshTokenGrant(
  rt: Rt,
  client: RegisteredClient,
  form: Map<string, string>,
): Promise<GrantOutcome> {
  const presented = form.get('refresh_token');
  if (!presented) return refuse('invalid_request', 'refresh_token is required', 'missing_parameter');
  const redeemed = await rt.auth.refreshTokens.redeem(presented, client.name, rt.keys.kid);
  if (!redeemed.ok) {
    if (redeemed.reason === 'reused') {
      // The family is spent already; it is dropped only once its access tokens are revoked.
      await rt.auth.revocations.revoke(redeemed.revoked);
      await rt.auth.refreshTokens.dropFamily(redeemed.family);
      rt.auth.events.revoked({
        client: client.name,
        reason: 'refresh_token_reused',
        jtis: redeemed.revoked.map((r) => r.jti),
      });
    }
    return refuse(
      'invalid_grant',
      'the refresh token is invalid, expired or already used',
      `refresh_${redeemed.reason}`,
    );
  }
  const scope = parseScope(form.get('scope'), redeemed.entry.scope);
  if (scope === null) return refuse('invalid_scope', 'scope exceeds the original grant', 'invalid_scope');
  const resource = form.get('resource');
  if (resource !== undefined && !acceptedResources(rt.auth.urls()).has(resource))
    return refuse('invalid_target', 'unknown resource', 'invalid_target');
  return (await issueWithRefresh(rt, client, scope, redeemed.entry.family)).outcome;
}

async function issueWithRefresh(
  rt: Rt,
  client: RegisteredClient,
  scope: string,
  family?: string,
): Promise<{ outcome: GrantOutcome; jti: string; exp: number; family: string }> {
  const ttl = rt.auth.settings.accessTokenTtlSeconds;
  const { token, jti, exp } = await rt.auth.tokens.issue(client.name, scope, ttl);
  const refresh = await rt.auth.refreshTokens.issue({
    client: client.name,
    scope,
    kid: rt.keys.kid,
    ttlSeconds: rt.auth.settings.refreshTokenTtlSeconds,
    access: { jti, exp },
    ...(family ? { family } : {}),
  });
  const body = {
    access_token: token,
    token_type: 'Bearer',
    expires_in: ttl,
    scope,
    refresh_token: refresh.token,
  };
  return { outcome: { ok: true, body, jti, exp, scope }, jti, exp, family: refresh.family };
}

/** The granted scope: `allowed` when none is asked for, null when more than `allowed` is asked for. */
export function parseScope(requested: string | undefined, allowed: string): string | null {
  if (requested === undefined || requested.trim() === '') return allowed;
  const allow = new Set(allowed.split(' ').filter(Boolean));
  const asked = [...new Set(requested.split(' ').filter(Boolean))];
  return asked.every((s) => allow.has(s)) ? asked.join(' ') : null;
}
