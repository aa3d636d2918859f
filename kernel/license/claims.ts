import { z } from 'zod';

/** The licensable product modules; infra and common need no license. */
export const PRODUCTS = ['cucm', 'imp', 'cuc'] as const;
export type Product = (typeof PRODUCTS)[number];

/**
 * The license is a JWS signed with the vendor key. PS512 is RSA-PSS with SHA-512, the scheme of the
 * integrity manifest, so one vendor key and one algorithm sign everything. Verification accepts this
 * algorithm only: no `none`, no HMAC, no PKCS#1 v1.5 fallback.
 */
export const LICENSE_ALG = 'PS512';
/** Explicit type (RFC 8725, 3.11): a vendor-signed token of another kind is never taken for a license. */
export const LICENSE_TYP = 'license+jwt';
/** A license is a few hundred bytes; anything far larger is not one. */
export const MAX_LICENSE_BYTES = 64 * 1024;
/** Most hosts one license may name (one per instance of a scale-out deployment, docs/scale-out.md). */
export const MAX_LICENSED_HOSTS = 64;

/** A host name as compared: lower case, no surrounding blanks, no trailing root dot. */
const normHost = (h: string): string => h.trim().toLowerCase().replace(/\.$/, '');

const epochSeconds = z.number().int().positive().max(32_503_680_000);

export const licenseClaimsSchema = z
  .object({
    /** The customer. */
    sub: z.string().min(1).max(256),
    /** The host the license is bound to, compared case-insensitively with the server's host name. */
    hostname: z.string().min(1).max(253),
    /**
     * Every host a multi-host license covers (one per instance sharing a state directory). `hostname` stays
     * required and is the first of them, so a server that predates this claim still reads the license,
     * and strips this claim as unknown: it is then licensed on the first host only.
     */
    hostnames: z.array(z.string().min(1).max(253)).min(1).max(MAX_LICENSED_HOSTS).optional(),
    exp: epochSeconds,
    grace_days: z.number().int().min(0).max(365),
    products: z
      .array(z.enum(PRODUCTS))
      .min(1)
      .refine((p) => new Set(p).size === p.length, 'products must not repeat'),
    tier: z.string().regex(/^[a-z][a-z0-9_-]{0,31}$/),
    iat: epochSeconds.optional(),
    nbf: epochSeconds.optional(),
    iss: z.string().max(64).optional(),
    jti: z.string().max(128).optional(),
  })
  // Unknown claims are ignored (RFC 7519, 4): a newer vendor tool may add some without breaking older servers.
  .strip()
  .superRefine((c, ctx) => {
    if (c.hostnames === undefined) return;
    const seen = new Set<string>();
    for (const h of c.hostnames) {
      if (seen.has(normHost(h)))
        ctx.addIssue({ code: 'custom', path: ['hostnames'], message: 'hostnames must not repeat' });
      seen.add(normHost(h));
    }
    // The older servers read `hostname` alone: it must be one of the covered hosts, or a license would
    // cover a host on an older server that it does not cover on a newer one.
    if (!seen.has(normHost(c.hostname)))
      ctx.addIssue({ code: 'custom', path: ['hostnames'], message: 'hostnames must include hostname' });
  });

export type LicenseClaims = z.infer<typeof licenseClaimsSchema>;

/** Host names compare case-insensitively and without a trailing root dot. */
export function sameHost(a: string, b: string): boolean {
  return normHost(a) === normHost(b);
}

/** Every host a license covers: `hostnames` when the license has it, else its one `hostname`. */
export function licensedHosts(claims: Pick<LicenseClaims, 'hostname' | 'hostnames'>): string[] {
  return claims.hostnames ? [...claims.hostnames] : [claims.hostname];
}

/** Whether the license covers `host`: it equals `hostname` or any of `hostnames`. */
export function coversHost(claims: Pick<LicenseClaims, 'hostname' | 'hostnames'>, host: string): boolean {
  return sameHost(claims.hostname, host) || licensedHosts(claims).some((h) => sameHost(h, host));
}
