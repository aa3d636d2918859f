import { constants, verify, type KeyObject } from 'node:crypto';

/**
 * RSA-PSS with SHA-512, MGF1-SHA-512 and a salt as long as the digest (64 bytes): the RFC 8017
 * recommendation, and the same parameters as JWA `PS512`, so manifests, bundles and licenses share one
 * scheme. Verification demands exactly this salt length rather than accepting any.
 */
export const PSS_HASH = 'sha512';
export const PSS_SALT_LENGTH = 64;
export const PSS_PADDING = constants.RSA_PKCS1_PSS_PADDING;

/** A detached signature file: base64 of the raw signature, optional trailing newline. */
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const MAX_SIGNATURE_CHARS = 4096;

/** True when `signature` (the text of a .sig file) is a valid RSA-PSS signature of `data` by `key`. */
export function verifyDetached(key: KeyObject, data: Uint8Array, signature: string): boolean {
  const text = signature.trim();
  if (text.length === 0 || text.length > MAX_SIGNATURE_CHARS || !BASE64.test(text)) return false;
  try {
    return verify(
      PSS_HASH,
      data,
      { key, padding: PSS_PADDING, saltLength: PSS_SALT_LENGTH },
      Buffer.from(text, 'base64'),
    );
  } catch {
    return false;
  }
}
