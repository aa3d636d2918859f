import { createHash, randomBytes } from 'node:crypto';

/** A random opaque credential (authorization code, refresh token, CSRF token): 256 bits, base64url. */
export function newOpaqueToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Stores keep only this digest, so a leaked store file hands out nothing usable. */
export function digest(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('base64url');
}
