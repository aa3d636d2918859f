import { isIP } from 'node:net';

/**
 * The caller's address. X-Forwarded-For is honoured only when the direct peer is a configured trusted
 * proxy, and then the right-most address that is not itself a trusted proxy is taken (the left part of
 * the header is whatever the client chose to send).
 */
export function clientIp(
  remote: string | undefined,
  forwardedFor: string | undefined,
  trusted: Set<string>,
): string {
  const peer = normalise(remote ?? 'unknown');
  if (!forwardedFor || !trusted.has(peer)) return peer;
  const hops = forwardedFor
    .split(',')
    .map((h) => normalise(h.trim()))
    .filter((h) => isIP(h) !== 0);
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i] as string;
    if (!trusted.has(hop)) return hop;
  }
  return peer;
}

function normalise(addr: string): string {
  return addr.startsWith('::ffff:') && isIP(addr.slice(7)) === 4 ? addr.slice(7) : addr;
}
