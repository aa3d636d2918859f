import { redirectUriProblem, shownUri } from '../clients/redirect-uri.ts';

/**
 * What the server keeps of an application's client metadata (RFC 7591 section 2), from a registration
 * or a client ID metadata document. Everything else a client sends is ignored: only what is shown on
 * the login page or decides where a code goes is kept, and it is bounded.
 */
export interface AppMetadata {
  /** Shown on the login page (escaped); null when the application gave none. */
  client_name: string | null;
  redirect_uris: string[];
  grant_types: ('authorization_code' | 'refresh_token')[];
}

export type AppMetadataProblem = {
  error: 'invalid_redirect_uri' | 'invalid_client_metadata';
  description: string;
};

export const MAX_CLIENT_NAME_CHARS = 100;
export const MAX_REDIRECT_URIS = 10;
const MAX_SCOPE_CHARS = 1000;

/** C0/C1 controls, format characters (bidirectional overrides, zero-width), line and paragraph separators. */
const UNSHOWABLE = /[\p{Cc}\p{Cf}\u2028\u2029]/u;

/**
 * Validates client metadata: public clients only (`token_endpoint_auth_method` "none", the default
 * here), `authorization_code` (with `refresh_token` if wanted), response type `code`, redirect URIs
 * https or http on a loopback name (RFC 8252; any port matches at /authorize). `scope` may be sent but
 * grants nothing more than the one scope there is.
 */
export function validateAppMetadata(
  raw: unknown,
): { ok: true; metadata: AppMetadata } | { ok: false; problem: AppMetadataProblem } {
  const bad = (description: string) =>
    ({ ok: false, problem: { error: 'invalid_client_metadata', description } }) as const;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return bad('the metadata must be a JSON object');
  const m = raw as Record<string, unknown>;

  const redirects = m.redirect_uris;
  if (!Array.isArray(redirects) || redirects.length === 0)
    return {
      ok: false,
      problem: { error: 'invalid_redirect_uri', description: 'redirect_uris must be a non-empty array' },
    };
  if (redirects.length > MAX_REDIRECT_URIS)
    return {
      ok: false,
      problem: {
        error: 'invalid_redirect_uri',
        description: `at most ${MAX_REDIRECT_URIS} redirect_uris are accepted`,
      },
    };
  for (const uri of redirects) {
    const problem = appRedirectUriProblem(uri);
    if (problem)
      return {
        ok: false,
        problem: { error: 'invalid_redirect_uri', description: problem },
      };
  }

  let name: string | null = null;
  if (m.client_name !== undefined) {
    if (typeof m.client_name !== 'string') return bad('client_name must be a string');
    const trimmed = m.client_name.trim();
    if (UNSHOWABLE.test(trimmed))
      return bad('client_name contains control or invisible formatting characters');
    if ([...trimmed].length > MAX_CLIENT_NAME_CHARS)
      return bad(`client_name is longer than ${MAX_CLIENT_NAME_CHARS} characters`);
    name = trimmed === '' ? null : trimmed;
  }

  const auth = m.token_endpoint_auth_method ?? 'none';
  if (auth !== 'none')
    return bad('token_endpoint_auth_method must be "none": only public clients (PKCE S256) are accepted');
  if (m.client_secret !== undefined) return bad('a public client has no client_secret');

  const grants = m.grant_types ?? ['authorization_code'];
  if (!isStringArray(grants) || grants.length > 5) return bad('grant_types must be an array of strings');
  const unknown = grants.find((g) => g !== 'authorization_code' && g !== 'refresh_token');
  if (unknown !== undefined)
    return bad(`grant_types may hold only authorization_code and refresh_token (not ${shownValue(unknown)})`);
  if (!grants.includes('authorization_code')) return bad('grant_types must include authorization_code');

  const responses = m.response_types ?? ['code'];
  if (!isStringArray(responses) || responses.length === 0 || responses.some((r) => r !== 'code'))
    return bad('response_types must be ["code"]');

  if (m.scope !== undefined) {
    if (typeof m.scope !== 'string' || m.scope.length > MAX_SCOPE_CHARS || /[^\x20-\x7e]/.test(m.scope))
      return bad(`scope must be printable ASCII of at most ${MAX_SCOPE_CHARS} characters`);
  }

  return {
    ok: true,
    metadata: {
      client_name: name,
      redirect_uris: [...new Set(redirects as string[])],
      grant_types: [...new Set(grants)] as AppMetadata['grant_types'],
    },
  };
}

/**
 * Why a redirect URI is not acceptable for an application, or null: the rules of configured clients
 * (redirect-uri.ts) without private-use schemes, so https, or http on localhost, 127.0.0.1 or [::1].
 */
export function appRedirectUriProblem(uri: unknown): string | null {
  if (typeof uri !== 'string') return 'every redirect URI must be a string';
  const problem = redirectUriProblem(uri);
  if (problem) return `redirect URI ${shownUri(uri)} ${problem}`;
  if (!/^https?:\/\//i.test(uri))
    return `redirect URI ${shownUri(uri)} must be https, or http on localhost, 127.0.0.1 or [::1]`;
  return null;
}

function isStringArray(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}

function shownValue(v: string): string {
  return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}...` : v).replace(/[^\x20-\x7e]/g, '?');
}
