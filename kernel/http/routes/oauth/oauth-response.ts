import type { KernelContext } from '../../state.ts';

/** RFC 6749 section 5.2 error codes (plus RFC 8707's invalid_target and RFC 7591's registration errors). */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata'
  | 'access_denied'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'invalid_target';

/** Token responses and OAuth errors must never be cached (RFC 6749 section 5.1). */
export function noStore(ctx: KernelContext): void {
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Pragma', 'no-cache');
}

export function oauthError(
  ctx: KernelContext,
  status: number,
  error: OAuthErrorCode,
  description: string,
): void {
  noStore(ctx);
  ctx.status = status;
  ctx.type = 'application/json';
  ctx.body = { error, error_description: description };
}

/**
 * A request refused before its client credentials were checked (listed address, too many attempts):
 * 429 with Retry-After, in the RFC 6749 error shape with the kernel's code as the error.
 */
export function oauthBlocked(ctx: KernelContext, description: string, retryAfterSeconds: number): void {
  noStore(ctx);
  ctx.status = 429;
  ctx.set('Retry-After', String(Math.max(1, Math.ceil(retryAfterSeconds))));
  ctx.type = 'application/json';
  ctx.body = { error: 'AUTH_BLOCKED', error_description: description };
}

export function oauthJson(ctx: KernelContext, body: Record<string, unknown>): void {
  noStore(ctx);
  ctx.status = 200;
  ctx.type = 'application/json';
  ctx.body = body;
}
