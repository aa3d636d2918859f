/** Hosts a native app listens on for its redirect (RFC 8252 section 7.3); any port matches. */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** A private-use URI scheme (RFC 8252 section 7.1) is a reversed domain name, so it holds a dot. */
const PRIVATE_USE_SCHEME = /^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+:$/;

/** Far above any real callback URL, far below what would bloat a page, a log line or an error. */
export const MAX_REDIRECT_URI_LENGTH = 2048;

/**
 * Why a redirect URI is unacceptable, or null when it is fine: https anywhere, http only on loopback,
 * or a private-use scheme; never a fragment or user information (RFC 6749 section 3.1.2). The URI is
 * read as written, before any URL parser normalises it: a parser that accepts port 0, repairs a bad
 * percent-encoding or drops an IPv6 zone would let through what the redirect later fails on. Whatever
 * the input, the answer is a reason or null, never an exception.
 */
export function redirectUriProblem(uri: string): string | null {
  if (uri.length === 0) return 'is empty';
  if (uri.length > MAX_REDIRECT_URI_LENGTH) return `is longer than ${MAX_REDIRECT_URI_LENGTH} characters`;
  if (/[^\x21-\x7e]/.test(uri))
    return 'contains a space, a control character or a character outside ASCII (percent-encode it)';
  // URL parsers read a backslash as a slash in http(s) URIs: what is checked here would differ from
  // where the browser is sent.
  if (uri.includes('\\')) return 'contains a backslash';
  if (uri.includes('#')) return 'must not contain a fragment';
  if (/%(?![0-9A-Fa-f]{2})/.test(uri)) return 'contains a malformed percent-encoding';
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:/.exec(uri)?.[0];
  if (!scheme) return 'is not an absolute URI';
  const authority = authorityOf(uri.slice(scheme.length));
  if (authority !== null) {
    const problem = authorityProblem(authority);
    if (problem) return problem;
  }
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'is not an absolute URI';
  }
  const protocol = scheme.toLowerCase();
  if (protocol === 'https:') return authority ? null : 'must name a host';
  if (protocol === 'http:')
    return authority !== null && isLoopbackHost(authority) ? null : 'may use http only on a loopback address';
  return PRIVATE_USE_SCHEME.test(url.protocol) ? null : `uses a scheme that is not allowed (${url.protocol})`;
}

/** The URI as it may appear in an error or a log line: bounded, printable. */
export function shownUri(uri: string): string {
  const printable = uri.replace(/[^\x20-\x7e]/g, '?');
  return printable.length > 120 ? `${printable.slice(0, 120)}... (${uri.length} characters)` : printable;
}

/**
 * A loopback http URI split around its host and port; the scheme and host are case-insensitive
 * (RFC 3986 section 6.2.2.1), the path and query are compared as written (no normalisation).
 */
const LOOPBACK_URI = /^http:\/\/(?:127\.0\.0\.1|\[::1\]|localhost)(?::([1-9]\d{0,4}))?([/?][^#]*)?$/i;

/**
 * Whether `requested` is one of `registered`: exact string comparison, except that a loopback http
 * URI matches a registered loopback http URI whatever its loopback spelling (`localhost`, `127.0.0.1`,
 * `[::1]`) and port, the path and query compared as written. RFC 8252 section 7.3 lets a native app
 * take any free port, and section 8.3 lets it listen on whichever loopback name it can bind: Claude Code
 * asks for `http://localhost:<port>/callback` whatever was registered. The redirect goes to the URI as
 * requested. A requested URI that is not itself acceptable matches nothing.
 */
export function matchRedirectUri(requested: string, registered: readonly string[]): boolean {
  if (redirectUriProblem(requested) !== null) return false;
  if (registered.includes(requested)) return true;
  const req = LOOPBACK_URI.exec(requested);
  if (!req) return false;
  const path = req[2] ?? '/';
  return registered.some((r) => {
    const reg = LOOPBACK_URI.exec(r);
    return reg !== null && (reg[2] ?? '/') === path;
  });
}

/** The authority (RFC 3986 section 3.2) of what follows the scheme, or null when there is none. */
function authorityOf(rest: string): string | null {
  if (!rest.startsWith('//')) return null;
  const end = rest.slice(2).search(/[/?]/);
  return end < 0 ? rest.slice(2) : rest.slice(2, 2 + end);
}

function authorityProblem(authority: string): string | null {
  if (authority.includes('@')) return 'must not contain user information';
  const m = /^(\[[^\]]*\]|[^:[\]]*)(?::(.*))?$/.exec(authority);
  if (!m) return 'has a malformed host';
  const host = m[1] as string;
  const port = m[2];
  if (host === '' || host === '[]') return 'must name a host';
  if (host.startsWith('[')) {
    if (host.includes('%')) return 'must not contain an IPv6 zone identifier';
    if (!/^\[[0-9A-Fa-f:.]+\]$/.test(host)) return 'has a malformed IPv6 address';
  } else if (host.includes('%')) {
    return 'must not percent-encode its host';
  }
  if (port !== undefined && !validPort(port)) return 'has a port that is not a number from 1 to 65535';
  return null;
}

function validPort(port: string): boolean {
  return /^[1-9]\d{0,4}$/.test(port) && Number(port) <= 65_535;
}

function isLoopbackHost(authority: string): boolean {
  const host = authority.replace(/:[^\]:]*$/, '').toLowerCase();
  return LOOPBACK_HOSTS.has(host);
}
