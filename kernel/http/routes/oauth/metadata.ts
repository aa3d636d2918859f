import type Router from '@koa/router';
import { SCOPE } from '../../../auth/urls.ts';
import type { KernelRuntime } from '../../../runtime.ts';
import { routeLabel } from '../../middleware/route-label.ts';
import type { KernelState } from '../../state.ts';

/**
 * RFC 8414 authorization-server metadata and RFC 9728 protected-resource metadata. All derive from
 * one issuer string, so it is identical in the metadata, the tokens and the authorization response.
 * Applications may register (RFC 7591, public clients) or use a client ID metadata document, each
 * advertised only while its setting allows it; either way people sign in as a configured client.
 */
export function metadataRoutes(router: Router<KernelState>, rt: KernelRuntime): void {
  router.get(
    '/.well-known/oauth-authorization-server',
    routeLabel('/.well-known/oauth-authorization-server'),
    (ctx) => {
      const u = rt.auth.urls();
      ctx.set('Cache-Control', 'max-age=300');
      ctx.body = {
        issuer: u.issuer,
        authorization_endpoint: u.authorize,
        token_endpoint: u.token,
        revocation_endpoint: u.revoke,
        response_types_supported: ['code'],
        response_modes_supported: ['query'],
        grant_types_supported: ['authorization_code', 'client_credentials', 'refresh_token'],
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
        code_challenge_methods_supported: ['S256'],
        scopes_supported: [SCOPE],
        authorization_response_iss_parameter_supported: true,
        ...(rt.auth.settings.registration.enabled ? { registration_endpoint: u.register } : {}),
        client_id_metadata_document_supported: rt.auth.settings.metadataDocuments,
      };
    },
  );

  const resourceMetadata = (resource: string) => {
    const u = rt.auth.urls();
    return {
      resource,
      authorization_servers: [u.issuer],
      bearer_methods_supported: ['header'],
      scopes_supported: [SCOPE],
      resource_signing_alg_values_supported: ['RS256'],
      resource_name: rt.config.SERVER_NAME,
    };
  };
  router.get(
    '/.well-known/oauth-protected-resource',
    routeLabel('/.well-known/oauth-protected-resource'),
    (ctx) => {
      ctx.set('Cache-Control', 'max-age=300');
      ctx.body = resourceMetadata(rt.auth.urls().issuer);
    },
  );
  router.get(
    '/.well-known/oauth-protected-resource/mcp',
    routeLabel('/.well-known/oauth-protected-resource/mcp'),
    (ctx) => {
      ctx.set('Cache-Control', 'max-age=300');
      ctx.body = resourceMetadata(rt.auth.urls().resource);
    },
  );
}
