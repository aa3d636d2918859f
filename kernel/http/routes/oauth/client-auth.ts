import { isMetadataDocumentId } from '../../../auth/client-metadata-document.ts';
import { REGISTERED_APP_ID } from '../../../auth/registered-apps.ts';
import type { GateRefusal } from '../../../auth/verification-gate.ts';
import type { RegisteredClient } from '../../../clients/registry.ts';
import type { KernelRuntime } from '../../../runtime.ts';
import type { KernelContext } from '../../state.ts';

export type ClientAuthMethod = 'client_secret_basic' | 'client_secret_post' | 'none';

/**
 * Who is at the token endpoint: a configured client, proven by its secret, or an application (a public
 * client, RFC 7591 or metadata document), which proves nothing by itself: what it may redeem is what
 * was granted through it (the code or refresh token names it).
 */
export type TokenCaller = { kind: 'client'; client: RegisteredClient } | { kind: 'app'; appId: string };

export type ClientAuthResult =
  | { ok: true; caller: TokenCaller; method: ClientAuthMethod }
  /** The secret was not checked at all (429): listed address, threshold reached, verifications busy. */
  | { ok: false; refused: true; reason: GateRefusal; retryAfterSeconds: number; description: string }
  | {
      ok: false;
      refused: false;
      status: 400 | 401;
      error: 'invalid_request' | 'invalid_client';
      description: string;
      /** Audit reason. */
      reason: string;
      /** The client named, when it is a configured one (for the audit record only). */
      named?: string;
      basic: boolean;
      /** Already counted toward the blacklist by the verification gate. */
      counted: boolean;
    };

/**
 * Client authentication at the token endpoint (RFC 6749 section 2.3.1): HTTP Basic or client_id and
 * client_secret in the body, never both. The secret is checked against the bcrypt hash through the
 * verification gate, which may refuse to check it at all.
 */
export async function authenticateClient(
  ctx: KernelContext,
  form: Map<string, string>,
  rt: Pick<KernelRuntime, 'auth' | 'clients'>,
): Promise<ClientAuthResult> {
  const header = ctx.get('authorization');
  const basic = /^basic /i.test(header);
  const bodySecret = form.get('client_secret');
  const bodyId = form.get('client_id');
  const refuse = (
    status: 400 | 401,
    error: 'invalid_request' | 'invalid_client',
    description: string,
    reason: string,
    named?: string,
    counted = false,
  ): ClientAuthResult => ({
    ok: false,
    refused: false,
    counted,
    status,
    error,
    description,
    reason,
    basic,
    ...(named !== undefined && rt.clients.get(named) ? { named } : {}),
  });

  let id: string;
  let secret: string;
  let method: ClientAuthMethod;
  if (basic) {
    if (bodySecret !== undefined)
      return refuse(
        400,
        'invalid_request',
        'use one client authentication method, not two',
        'two_auth_methods',
      );
    const decoded = decodeBasic(header.slice(6).trim());
    if (!decoded) return refuse(401, 'invalid_client', 'malformed Basic credentials', 'malformed_basic');
    [id, secret] = decoded;
    if (bodyId !== undefined && bodyId !== id)
      return refuse(
        400,
        'invalid_request',
        'client_id differs from the authenticated client',
        'client_id_mismatch',
        id,
      );
    method = 'client_secret_basic';
  } else if (header !== '') {
    return refuse(401, 'invalid_client', 'unsupported authentication scheme', 'unsupported_scheme');
  } else if (bodyId !== undefined && bodySecret === undefined && isAppId(bodyId)) {
    // A public client (token_endpoint_auth_method "none"): named, not authenticated; PKCE and the
    // code's or refresh token's binding to this client_id are what hold it.
    if (REGISTERED_APP_ID.test(bodyId) && !rt.auth.apps.get(bodyId))
      return refuse(
        401,
        'invalid_client',
        'no such registered application (removed or expired?)',
        'unknown_app',
      );
    if (isMetadataDocumentId(bodyId) && !rt.auth.settings.metadataDocuments)
      return refuse(401, 'invalid_client', 'client ID metadata documents are not accepted', 'unknown_app');
    return { ok: true, caller: { kind: 'app', appId: bodyId }, method: 'none' };
  } else if (bodyId !== undefined && bodySecret !== undefined) {
    [id, secret, method] = [bodyId, bodySecret, 'client_secret_post'];
  } else {
    return refuse(401, 'invalid_client', 'client authentication is required', 'missing_client_credentials');
  }

  const client = rt.clients.get(id);
  const check = await rt.auth.secrets.check(ctx.state.ip, secret, client?.secretHash);
  if (check.outcome === 'refused')
    return {
      ok: false,
      refused: true,
      reason: check.reason,
      retryAfterSeconds: check.retryAfterSeconds,
      description: check.message,
    };
  if (!client || check.outcome !== 'valid')
    return refuse(
      401,
      'invalid_client',
      'client authentication failed',
      client ? 'bad_client_secret' : 'unknown_client',
      id,
      true,
    );
  return { ok: true, caller: { kind: 'client', client }, method };
}

/** A client_id of an application rather than of a configured client. */
export function isAppId(id: string): boolean {
  return REGISTERED_APP_ID.test(id) || isMetadataDocumentId(id);
}

/** RFC 6749 section 2.3.1: id and secret are form-urlencoded before being joined and base64-encoded. */
function decodeBasic(b64: string): [string, string] | null {
  if (!/^[A-Za-z0-9+/]+=*$/.test(b64)) return null;
  const text = Buffer.from(b64, 'base64').toString('utf8');
  const colon = text.indexOf(':');
  if (colon < 0) return null;
  try {
    const dec = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
    return [dec(text.slice(0, colon)), dec(text.slice(colon + 1))];
  } catch {
    return null;
  }
}
