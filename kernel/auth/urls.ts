/** Every URL the authorization server and the protected resource publish, derived from one base. */
export interface OAuthUrls {
  /** The issuer: identical in tokens, metadata and the `iss` authorization-response parameter. */
  issuer: string;
  /** The canonical MCP resource URL: the audience of every access token (no trailing slash). */
  resource: string;
  authorize: string;
  token: string;
  revoke: string;
  /** RFC 7591 dynamic client registration. */
  register: string;
  authorizationServerMetadata: string;
  /** RFC 9728 metadata of the MCP resource; what WWW-Authenticate points at. */
  resourceMetadata: string;
}

export function oauthUrls(publicBaseUrl: string): OAuthUrls {
  const issuer = publicBaseUrl.replace(/\/+$/, '');
  return {
    issuer,
    resource: `${issuer}/mcp`,
    authorize: `${issuer}/authorize`,
    token: `${issuer}/token`,
    revoke: `${issuer}/revoke`,
    register: `${issuer}/register`,
    authorizationServerMetadata: `${issuer}/.well-known/oauth-authorization-server`,
    resourceMetadata: `${issuer}/.well-known/oauth-protected-resource/mcp`,
  };
}

/**
 * Resource indicators (RFC 8707) a client may ask for: the MCP endpoint, or the server as a whole
 * (what the root protected-resource document names). Either way the token's audience is the MCP URL.
 */
export function acceptedResources(urls: OAuthUrls): Set<string> {
  return new Set([urls.resource, `${urls.resource}/`, urls.issuer, `${urls.issuer}/`]);
}

/** The one scope: access to the MCP endpoint and /status; what a client may do there is its profile's business. */
export const SCOPE = 'mcp';
