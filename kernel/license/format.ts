import { licensedHosts } from './claims.ts';
import type { LicenseEvaluation } from './evaluate.ts';

export interface LicenseContext {
  file: string;
  hostname: string;
  keys: { id: string; fingerprint: string; vouched: boolean }[];
  integrity: string;
  mode: string;
}

/** What license_checker prints: who, where, what, until when, and why the state is what it is. */
export function formatLicense(ev: LicenseEvaluation, ctx: LicenseContext): string {
  const c = ev.claims;
  const u = ev.unverifiedClaims;
  const shown = (key: string): string => {
    if (c) return String((c as Record<string, unknown>)[key] ?? '-');
    const v = u?.[key];
    return v === undefined ? '-' : `${Array.isArray(v) ? v.join(',') : String(v)} (UNVERIFIED)`;
  };
  const lines = [
    `file:        ${ctx.file}`,
    `state:       ${ev.status.state}  (${ev.status.reason})`,
    `signature:   ${ev.signature}${ev.header?.alg ? `  alg ${ev.header.alg}` : ''}${ev.header?.kid ? `  kid ${ev.header.kid}` : ''}`,
  ];
  if (ev.publisher) lines.push(`signed by:   ${ev.publisher}  key sha256 ${ev.fingerprint ?? '?'}`);
  lines.push(
    `customer:    ${shown('sub')}`,
    hostLine(ev, ctx, shown),
    `products:    ${c ? c.products.join(', ') : shown('products')}`,
    `tier:        ${shown('tier')}`,
    `issued:      ${ev.issuedAt ?? '-'}`,
    `expires:     ${ev.expiresAt ?? '-'}`,
    `grace:       ${c ? `${c.grace_days} days, until ${ev.graceEndsAt ?? '-'}` : shown('grace_days')}`,
    `trusted keys (${ctx.mode}; integrity ${ctx.integrity}): ${
      ctx.keys.length === 0
        ? 'none'
        : ctx.keys.map((k) => `${k.id}${k.vouched ? '' : ' (not vouched by a signed manifest)'}`).join(', ')
    }`,
  );
  return `${lines.join('\n')}\n`;
}

/**
 * The covered host(s) and whether this host is one of them. A one-host license shows `hostname:` as it
 * always has; a multi-host one lists every host it covers (`hostnames:`).
 */
function hostLine(ev: LicenseEvaluation, ctx: LicenseContext, shown: (key: string) => string): string {
  const hosts = ev.claims ? licensedHosts(ev.claims) : undefined;
  const many = hosts ? hosts.length > 1 : ev.unverifiedClaims?.hostnames !== undefined;
  const match =
    ev.hostnameMatches === undefined
      ? ''
      : ev.hostnameMatches
        ? many
          ? `  (this host, ${ctx.hostname}, is among them)`
          : '  (matches this host)'
        : many
          ? `  (this host is ${ctx.hostname}, not among them)`
          : `  (this host is ${ctx.hostname})`;
  if (!many) return `hostname:    ${shown('hostname')}${match}`;
  return `hostnames:   ${hosts ? hosts.join(', ') : shown('hostnames')}${match}`;
}
