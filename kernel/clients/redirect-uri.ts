/** Hosts a native app listens on for its redirect (RFC 8252 section 7.3); any port matches. */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** A private-use URI scheme (RFC 8252 section 7.1) is a reversed domain name, so it holds a dot. */
const PRIVATE_USE_SCHEME = /^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+:$/;

/**
 * Why a registered redirect URI is unacceptable, or null when it is fine: https anywhere, http only on
 * loopback, or a private-use scheme; never a fragment (RFC 6749 section 3.1.2).
 */
export function redirectUriProblem(uri: string): string | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'is not an absolute URI';
  }
  if (url.hash !== '' || uri.includes('#')) return 'must not contain a fragment';
  if (url.username !== '' || url.password !== '') return 'must not contain user information';
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:') return isLoopback(url) ? null : 'may use http only on a loopback address';
  return PRIVATE_USE_SCHEME.test(url.protocol) ? null : `uses a scheme that is not allowed (${url.protocol})`;
}

/** A loopback http URI split around its port, compared as written (no normalisation). */
const LOOPBACK_URI = /^http:\/\/(127\.0\.0\.1|\[::1\]|localhost)(?::(\d{1,5}))?([/?][^#]*)?$/;

/**
 * Whether `requested` is one of `registered`: exact string comparison, except that a loopback http
 * URI matches a registered loopback URI on any port (RFC 8252 section 7.3), the rest compared as written.
 */
export function matchRedirectUri(requested: string, registered: readonly string[]): boolean {
  if (registered.includes(requested)) return true;
  const req = LOOPBACK_URI.exec(requested);
  if (!req) return false;
  return registered.some((r) => {
    const reg = LOOPBACK_URI.exec(r);
    return reg !== null && reg[1] === req[1] && (reg[3] ?? '/') === (req[3] ?? '/');
  });
}

function isLoopback(url: URL): boolean {
  return LOOPBACK_HOSTS.has(url.hostname);
}
