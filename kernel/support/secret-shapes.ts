import { scrubText } from '../logging/redact.ts';

// What the support bundle treats as a secret. Broader than the log redactor on purpose: a bundle
// leaves the installation (it is sent to support), and a hidden harmless value costs a question while
// a leaked secret costs an incident.

/**
 * Setting names that suggest a secret. `_ENC$` catches encrypted values (BACKUP_SFTP_PASSWORD_ENC):
 * an encrypted secret is still a secret to whoever holds the key.
 */
const SECRET_NAME =
  /pass|pwd|secret|token|(^|_)keys?($|_)|api_?key|credential|private|cookie|session|salt|signature|_enc$|^pin$|bearer|jwt|otp|seed/i;

/**
 * Settings whose name matches the pattern above but whose value is known not to be secret: durations
 * and the path of the TLS key (the path, not the key). Their values are still checked by shape.
 */
const KNOWN_NOT_SECRET = new Set([
  'AUTH_ACCESS_TOKEN_TTL_SECONDS',
  'AUTH_REFRESH_TOKEN_TTL_SECONDS',
  'AUTH_STARTUP_TOKEN_TTL_SECONDS',
  'TLS_KEY_FILE',
  // The SFTP server's public host-key fingerprint: what support compares when an upload is refused.
  'BACKUP_SFTP_HOST_KEY',
]);

export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name) && !KNOWN_NOT_SECRET.has(name);
}

const PEM = /-----BEGIN [A-Z0-9 ]+-----/;
const JWT_LIKE = /eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}/;
/** A public-key fingerprint (OpenSSH `SHA256:<base64>`): identifies a key, reveals nothing. */
const FINGERPRINT = /^SHA256:[A-Za-z0-9+/]{43}=?$/;
/** A dotted host name ending in a top-level label: configuration, not a token. */
const HOST_NAME = /^([a-z0-9-]+\.)+[a-z]{2,63}$/i;
/** Token alphabet (base64, base64url, hex): no spaces, colons or commas. */
const TOKEN_ALPHABET = /^[A-Za-z0-9+/=_.~-]{16,}$/;

/**
 * True when a value has the shape of a secret whatever its name: text the log redactor would mask
 * (`password=...`, bearer/basic credentials, JWTs, URL userinfo), a PEM block, or a long random-looking
 * token (letters and digits mixed, high character entropy). Paths and plain URLs are not tokens.
 */
export function looksLikeSecret(value: string): boolean {
  const v = value.trim();
  if (v === '') return false;
  if (scrubText(v) !== v || PEM.test(v) || JWT_LIKE.test(v)) return true;
  if (FINGERPRINT.test(v)) return false;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(v) || /^(\/|\.\.?\/|~\/)/.test(v) || HOST_NAME.test(v)) return false;
  return TOKEN_ALPHABET.test(v) && /\d/.test(v) && /[A-Za-z]/.test(v) && entropyBitsPerChar(v) >= 3;
}

/**
 * looksLikeSecret of the whole value, of any word in it (a token inside a list or a sentence), or of
 * any piece of a URL (a webhook URL carries its secret as a path segment).
 */
export function containsSecret(value: string): boolean {
  if (FINGERPRINT.test(value.trim())) return false;
  return (
    looksLikeSecret(value) ||
    value.split(/[\s,;|]+/).some(looksLikeSecret) ||
    value.split(/[\s,;|/?&=#@]+/).some(looksLikeSecret)
  );
}

function entropyBitsPerChar(s: string): number {
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}
