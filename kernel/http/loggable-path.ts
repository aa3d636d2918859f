/** A path segment that may be a one-time link's token (a download link, a credential page). */
const TOKEN_LIKE = /^[A-Za-z0-9._~-]{32,}$/;

/**
 * A request path as logs and audit records show it: a segment long enough to be a token is replaced,
 * so a one-time link refused before its route (a wrong Host, a blocked address) is not written where
 * whoever reads the logs could still use it.
 */
export function loggablePath(path: string): string {
  return path
    .split('/')
    .map((s) => (TOKEN_LIKE.test(s) ? '<token>' : s))
    .join('/');
}
