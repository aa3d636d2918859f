import type { KernelContext } from '../../state.ts';

/** RFC 6749 section 5.2 error codes (plus RFC 8707's invalid_target). */
export type OAuthErrorCode =
  | 'invalid_request'
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

export function oauthJson(ctx: KernelContext, body: Record<string, unknown>): void {
  noStore(ctx);
  ctx.status = 200;
  ctx.type = 'application/json';
  ctx.body = body;
}
