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

const epochSeconds = z.number().int().positive().max(32_503_680_000);

export const licenseClaimsSchema = z
  .object({
    /** The customer. */
    sub: z.string().min(1).max(256),
    /** The host the license is bound to, compared case-insensitively with the server's host name. */
    hostname: z.string().min(1).max(253),
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
  .strip();

export type LicenseClaims = z.infer<typeof licenseClaimsSchema>;

/** Host names compare case-insensitively and without a trailing root dot. */
export function sameHost(a: string, b: string): boolean {
  const norm = (h: string): string => h.trim().toLowerCase().replace(/\.$/, '');
  return norm(a) === norm(b);
}
