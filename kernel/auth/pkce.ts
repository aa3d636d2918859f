import { createHash, timingSafeEqual } from 'node:crypto';

/** RFC 7636 section 4.1: 43 to 128 unreserved characters. */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
/** An S256 challenge is the base64url of a SHA-256 digest: always 43 characters. */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

export function isS256Challenge(challenge: string): boolean {
  return S256_CHALLENGE.test(challenge);
}

/** Whether `verifier` hashes to `challenge` (S256, the only method this server accepts). */
export function verifyS256(verifier: string, challenge: string): boolean {
  if (!VERIFIER.test(verifier) || !isS256Challenge(challenge)) return false;
  const computed = Buffer.from(createHash('sha256').update(verifier, 'ascii').digest('base64url'));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}
