import type { AppBinding } from '../../../auth/access-tokens.ts';
import { verifyS256 } from '../../../auth/pkce.ts';
import { REGISTERED_APP_ID } from '../../../auth/registered-apps.ts';
import { acceptedResources, SCOPE } from '../../../auth/urls.ts';
import type { RegisteredClient } from '../../../clients/registry.ts';
import type { KernelRuntime } from '../../../runtime.ts';
import type { TokenCaller } from './client-auth.ts';
import type { OAuthErrorCode } from './oauth-response.ts';

export type GrantOutcome =
  | {
      ok: true;
      body: Record<string, unknown>;
      jti: string;
      exp: number;
      scope: string;
      /** The configured client the tokens were issued to. */
      client: string;
      /** The application they were issued through, if any. */
      app: AppBinding | null;
    }
  | { ok: false; error: OAuthErrorCode; description: string; reason: string };

type Rt = Pick<KernelRuntime, 'auth' | 'keys' | 'clients'>;

const refuse = (error: OAuthErrorCode, description: string, reason: string): GrantOutcome => ({
  ok: false,
  error,
  description,
  reason,
});

/**
 * authorization_code with PKCE (S256): the code must match client, redirect URI, verifier and resource.
 * A code of an application's sign-in is redeemed by that application's client_id only, and the tokens
 * go to the configured client the person signed in as.
 */
export async function authorizationCodeGrant(
  rt: Rt,
  caller: TokenCaller,
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
          client: redeemed.client,
          reason: 'code_reused',
          jtis: [...new Set(revoked.map((r) => r.jti))],
          ...appFields(redeemed.app),
        });
    }
    return refuse(
      'invalid_grant',
      'the authorization code is invalid, expired or already used',
      `code_${redeemed.reason}`,
    );
  }
  const b = redeemed.binding;
  const mine =
    caller.kind === 'client' ? b.client === caller.client.name && b.app === null : b.app?.id === caller.appId;
  if (!mine) return refuse('invalid_grant', 'the code was issued to another client', 'code_client_mismatch');
  const client = caller.kind === 'client' ? caller.client : rt.clients.get(b.client);
  if (!client)
    return refuse('invalid_grant', 'the client signed in as is no longer configured', 'unknown_client');
  if (!appAlive(rt, b.app))
    return refuse('invalid_grant', 'the application is no longer registered', 'app_removed');
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

  const out = await issueWithRefresh(rt, client, b.scope, b.app);
  await rt.auth.codes.recordIssued(redeemed.key, { jti: out.jti, exp: out.exp, family: out.family });
  return out.outcome;
}

/** client_credentials: the client acts as itself; no refresh token (it can always authenticate again). */
export async function clientCredentialsGrant(
  rt: Rt,
  caller: TokenCaller,
  form: Map<string, string>,
): Promise<GrantOutcome> {
  if (caller.kind === 'app')
    return refuse(
      'unauthorized_client',
      'an application obtains tokens by a person signing in (authorization_code), never client_credentials',
      'app_client_credentials',
    );
  const client = caller.client;
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
    client: client.name,
    app: null,
    body: { access_token: token, token_type: 'Bearer', expires_in: ttl, scope },
  };
}

/**
 * refresh_token: spends the presented token and returns a new pair in the same family. A family
 * granted through an application stays bound to it: only its client_id may refresh it.
 */
export async function refreshTokenGrant(
  rt: Rt,
  caller: TokenCaller,
  form: Map<string, string>,
): Promise<GrantOutcome> {
  const presented = form.get('refresh_token');
  if (!presented) return refuse('invalid_request', 'refresh_token is required', 'missing_parameter');
  const presenter = caller.kind === 'client' ? { client: caller.client.name } : { app: caller.appId };
  const redeemed = await rt.auth.refreshTokens.redeem(presented, presenter, rt.keys.kid);
  if (!redeemed.ok) {
    if (redeemed.reason === 'reused') {
      // The family is spent already; it is dropped only once its access tokens are revoked.
      await rt.auth.revocations.revoke(redeemed.revoked);
      await rt.auth.refreshTokens.dropFamily(redeemed.family);
      rt.auth.events.revoked({
        client: redeemed.client,
        reason: 'refresh_token_reused',
        jtis: redeemed.revoked.map((r) => r.jti),
        ...(caller.kind === 'app' ? { azp: caller.appId } : {}),
      });
    }
    return refuse(
      'invalid_grant',
      'the refresh token is invalid, expired or already used',
      `refresh_${redeemed.reason}`,
    );
  }
  const entry = redeemed.entry;
  const client = caller.kind === 'client' ? caller.client : rt.clients.get(entry.client);
  if (!client)
    return refuse('invalid_grant', 'the client signed in as is no longer configured', 'unknown_client');
  const app = entry.app ?? null;
  if (!appAlive(rt, app))
    return refuse('invalid_grant', 'the application is no longer registered', 'app_removed');
  const scope = parseScope(form.get('scope'), redeemed.entry.scope);
  if (scope === null) return refuse('invalid_scope', 'scope exceeds the original grant', 'invalid_scope');
  const resource = form.get('resource');
  if (resource !== undefined && !acceptedResources(rt.auth.urls()).has(resource))
    return refuse('invalid_target', 'unknown resource', 'invalid_target');
  return (await issueWithRefresh(rt, client, scope, app, redeemed.entry.family)).outcome;
}

/** A registered application must still be registered (not removed, not expired); a document one always is. */
function appAlive(rt: Rt, app: AppBinding | null): boolean {
  return app === null || !REGISTERED_APP_ID.test(app.id) || rt.auth.apps.get(app.id) !== undefined;
}

/** The audit fields naming an application. */
export function appFields(app: AppBinding | null | undefined): { azp?: string; client_app?: string | null } {
  return app ? { azp: app.id, client_app: app.name } : {};
}

async function issueWithRefresh(
  rt: Rt,
  client: RegisteredClient,
  scope: string,
  app: AppBinding | null,
  family?: string,
): Promise<{ outcome: GrantOutcome; jti: string; exp: number; family: string }> {
  const ttl = rt.auth.settings.accessTokenTtlSeconds;
  const { token, jti, exp } = await rt.auth.tokens.issue(client.name, scope, ttl, app ?? undefined);
  const refresh = await rt.auth.refreshTokens.issue({
    client: client.name,
    scope,
    kid: rt.keys.kid,
    ttlSeconds: rt.auth.settings.refreshTokenTtlSeconds,
    access: { jti, exp },
    ...(family ? { family } : {}),
    ...(app ? { app } : {}),
  });
  if (app) await rt.auth.apps.touch(app.id);
  const body = {
    access_token: token,
    token_type: 'Bearer',
    expires_in: ttl,
    scope,
    refresh_token: refresh.token,
  };
  return {
    outcome: { ok: true, body, jti, exp, scope, client: client.name, app },
    jti,
    exp,
    family: refresh.family,
  };
}

/** The granted scope: `allowed` when none is asked for, null when more than `allowed` is asked for. */
export function parseScope(requested: string | undefined, allowed: string): string | null {
  if (requested === undefined || requested.trim() === '') return allowed;
  const allow = new Set(allowed.split(' ').filter(Boolean));
  const asked = [...new Set(requested.split(' ').filter(Boolean))];
  return asked.every((s) => allow.has(s)) ? asked.join(' ') : null;
}
