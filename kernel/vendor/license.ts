import { randomUUID, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';
import {
  LICENSE_ALG,
  LICENSE_TYP,
  MAX_LICENSED_HOSTS,
  PRODUCTS,
  licenseClaimsSchema,
  sameHost,
  type Product,
} from '../license/claims.ts';
import { assertPublisherId } from './keys.ts';

export interface IssueLicenseOptions {
  privateKey: KeyObject;
  /** Publisher id: the `kid` header and the `iss` claim. */
  publisher: string;
  customer: string;
  /**
   * The host the license is bound to, or every host it covers (one per instance sharing a state
   * directory). Several hosts write `hostname` (the first, all an older server reads) and `hostnames` (all).
   */
  hostname: string | readonly string[];
  products: readonly string[];
  tier: string;
  expiresAt: Date;
  graceDays: number;
  issuedAt?: Date;
}

/** A signed license (compact JWS, PS512). Claims are validated with the server's own schema first. */
export async function issueLicense(opts: IssueLicenseOptions): Promise<string> {
  assertPublisherId(opts.publisher);
  const iat = Math.floor((opts.issuedAt ?? new Date()).getTime() / 1000);
  const hosts = typeof opts.hostname === 'string' ? [opts.hostname] : [...opts.hostname];
  if (hosts.length === 0) throw new Error('the license must name at least one host');
  const claims = licenseClaimsSchema.parse({
    sub: opts.customer,
    hostname: hosts[0],
    // A one-host license stays exactly what it always was: no `hostnames` claim.
    ...(hosts.length > 1 ? { hostnames: hosts } : {}),
    exp: Math.floor(opts.expiresAt.getTime() / 1000),
    grace_days: opts.graceDays,
    products: [...opts.products],
    tier: opts.tier,
    iat,
    iss: opts.publisher,
    jti: randomUUID(),
  });
  if (claims.exp <= iat) throw new Error('the license would expire before it is issued');
  return new SignJWT(claims)
    .setProtectedHeader({ alg: LICENSE_ALG, typ: LICENSE_TYP, kid: opts.publisher })
    .sign(opts.privateKey);
}

/** `cucm,imp` -> ['cucm', 'imp'], refusing anything outside the licensable products. */
export function parseProducts(text: string): Product[] {
  const list = text
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  const unknown = list.filter((p) => !(PRODUCTS as readonly string[]).includes(p));
  if (unknown.length > 0)
    throw new Error(`unknown product(s) ${unknown.join(', ')}; known: ${PRODUCTS.join(', ')}`);
  if (list.length === 0) throw new Error('at least one product is required');
  return [...new Set(list)] as Product[];
}

/**
 * `--hostname a --hostname b,c` -> ['a', 'b', 'c']: each value may itself be a comma list. Repeats
 * (compared as the server compares host names) are dropped; order is kept, the first is `hostname`.
 */
export function parseHostnames(values: readonly string[]): string[] {
  const hosts: string[] = [];
  for (const h of values.flatMap((v) => v.split(',')).map((s) => s.trim()))
    if (h !== '' && !hosts.some((k) => sameHost(k, h))) hosts.push(h);
  if (hosts.length === 0) throw new Error('at least one host name is required');
  if (hosts.length > MAX_LICENSED_HOSTS)
    throw new Error(`a license covers at most ${MAX_LICENSED_HOSTS} hosts, not ${hosts.length}`);
  const long = hosts.find((h) => h.length > 253);
  if (long !== undefined)
    throw new Error(`host name "${long.slice(0, 40)}..." is longer than 253 characters`);
  return hosts;
}

/**
 * An expiry given as an ISO date (`2027-01-31` is midnight UTC), an ISO date-time with its zone
 * (`2027-01-31T12:00:00Z`), or relative to `now` as `+<n><unit>` with unit s, m, h or d (`+30d`).
 */
export function parseExpiry(text: string, now: number = Date.now()): Date {
  const rel = /^\+(\d{1,6})([smhd])$/.exec(text.trim());
  if (rel) {
    const unit = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[rel[2] as 's' | 'm' | 'h' | 'd'];
    return new Date(now + Number(rel[1]) * unit);
  }
  if (!/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2}))?$/.test(text.trim()))
    throw new Error(`expiry "${text}" is neither an ISO date nor +<n>[smhd]`);
  const ms = Date.parse(text.trim());
  if (Number.isNaN(ms)) throw new Error(`expiry "${text}" is not a valid date`);
  return new Date(ms);
}
