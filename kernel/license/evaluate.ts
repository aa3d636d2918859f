import { compactVerify, decodeJwt, decodeProtectedHeader } from 'jose';
import type { PublisherKey } from '../integrity/publishers.ts';
import type { LicenseStatus } from '../runtime.ts';
import {
  LICENSE_ALG,
  LICENSE_TYP,
  MAX_LICENSE_BYTES,
  coversHost,
  licenseClaimsSchema,
  licensedHosts,
  type LicenseClaims,
} from './claims.ts';

export type SignatureVerdict =
  'valid' | 'missing' | 'malformed' | 'bad-algorithm' | 'unknown-key' | 'bad-signature';

/** Everything known about a license file: what the gate keeps, and what license_checker shows. */
export interface LicenseEvaluation {
  status: LicenseStatus;
  signature: SignatureVerdict;
  header?: { alg?: string; kid?: string; typ?: string };
  /** Claims, only once the signature and their shape are verified. */
  claims?: LicenseClaims;
  /** The decoded payload when it could not be verified: for display, never for a decision. */
  unverifiedClaims?: Record<string, unknown>;
  /** The publisher whose key verified the signature, and that key's SHA-256 fingerprint. */
  publisher?: string;
  fingerprint?: string;
  hostnameMatches?: boolean;
  expiresAt?: string;
  graceEndsAt?: string;
  issuedAt?: string;
}

const DAY_MS = 86_400_000;

/**
 * Verifies and evaluates a license. Never throws: every defect is a state. VALID before `exp`, GRACE
 * until `exp + grace_days`, EXPIRED after; INVALID when the file is missing, malformed, signed with
 * another algorithm or by an unknown publisher, badly signed, bound to another host, or its claims
 * are wrong. `now` is in milliseconds (the kernel clock).
 */
export async function inspectLicense(
  jwt: string | null,
  keys: readonly PublisherKey[],
  hostname: string,
  now: number,
): Promise<LicenseEvaluation> {
  const invalid = (
    signature: SignatureVerdict,
    reason: string,
    extra: Partial<LicenseEvaluation> = {},
  ): LicenseEvaluation => ({
    status: { state: 'INVALID', tier: null, expiresAt: null, products: [], reason },
    signature,
    ...extra,
  });
  if (jwt === null) return invalid('missing', 'no license file');
  const text = jwt.trim();
  if (text.length > MAX_LICENSE_BYTES)
    return invalid('malformed', 'license file is too large to be a license');

  let header: LicenseEvaluation['header'];
  try {
    const h = decodeProtectedHeader(text);
    header = {
      ...(typeof h.alg === 'string' ? { alg: h.alg } : {}),
      ...(typeof h.kid === 'string' ? { kid: h.kid } : {}),
      ...(typeof h.typ === 'string' ? { typ: h.typ } : {}),
    };
  } catch {
    return invalid('malformed', 'license file is not a signed JWT');
  }
  const unverified = decodeQuietly(text);
  const seen = { header, ...(unverified ? { unverifiedClaims: unverified } : {}) };
  if (header.alg !== LICENSE_ALG)
    return invalid(
      'bad-algorithm',
      `license algorithm ${header.alg ?? '(none)'} is not accepted (${LICENSE_ALG} only)`,
      seen,
    );
  if (header.typ !== LICENSE_TYP)
    return invalid('malformed', `license type ${header.typ ?? '(none)'} is not ${LICENSE_TYP}`, seen);
  const key = keys.find((k) => k.id === header.kid);
  if (!key) {
    const why =
      keys.length === 0
        ? 'no trusted publisher key is available (see the integrity check)'
        : `publisher "${header.kid ?? '(no kid)'}" is not a trusted publisher`;
    return invalid('unknown-key', `license cannot be verified: ${why}`, seen);
  }
  let payload: Uint8Array;
  try {
    payload = (await compactVerify(text, key.key, { algorithms: [LICENSE_ALG] })).payload;
  } catch {
    return invalid('bad-signature', `license signature does not verify with the key of "${key.id}"`, seen);
  }

  const signer = { header, publisher: key.id, fingerprint: key.fingerprint };
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(payload).toString('utf8'));
  } catch {
    return invalid('valid', 'license claims are not JSON', signer);
  }
  const parsed = licenseClaimsSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.join('.') || 'claims';
    return invalid('valid', `license claim ${where}: ${issue?.message ?? 'invalid'}`, {
      ...signer,
      ...(unverified ? { unverifiedClaims: unverified } : {}),
    });
  }
  const claims = parsed.data;
  const expiresAt = new Date(claims.exp * 1000).toISOString();
  const graceEnd = claims.exp * 1000 + claims.grace_days * DAY_MS;
  const dates = {
    expiresAt,
    graceEndsAt: new Date(graceEnd).toISOString(),
    ...(claims.iat !== undefined ? { issuedAt: new Date(claims.iat * 1000).toISOString() } : {}),
  };
  // A multi-host license (one per instance of a scale-out deployment) covers every host it names.
  const hostnameMatches = coversHost(claims, hostname);
  const known = { ...signer, claims, hostnameMatches, ...dates };
  const refuse = (reason: string): LicenseEvaluation => ({
    status: { state: 'INVALID', tier: claims.tier, expiresAt, products: [], reason },
    signature: 'valid',
    ...known,
  });
  if (claims.iss !== undefined && claims.iss !== key.id)
    return refuse(`license issuer "${claims.iss}" is not its signer "${key.id}"`);
  if (!hostnameMatches) {
    const hosts = licensedHosts(claims);
    return refuse(
      hosts.length === 1
        ? `license is bound to host "${claims.hostname}", not this host`
        : `license is bound to hosts ${namedHosts(hosts)}, not this host`,
    );
  }
  if (claims.nbf !== undefined && now < claims.nbf * 1000)
    return refuse(`license is not valid before ${new Date(claims.nbf * 1000).toISOString()}`);

  const base = { tier: claims.tier, expiresAt };
  let status: LicenseStatus;
  if (now < claims.exp * 1000)
    status = { ...base, state: 'VALID', products: [...claims.products], reason: `valid until ${expiresAt}` };
  else if (now < graceEnd)
    status = {
      ...base,
      state: 'GRACE',
      products: [...claims.products],
      reason: `expired on ${expiresAt}; grace period until ${dates.graceEndsAt}`,
    };
  else
    status = {
      ...base,
      state: 'EXPIRED',
      products: [],
      reason: `expired on ${expiresAt}; grace period ended ${dates.graceEndsAt}`,
    };
  return { status, signature: 'valid', ...known };
}

/** The license state alone (what /status reports and the gate keeps). */
export async function evaluateLicense(
  jwt: string | null,
  keys: readonly PublisherKey[],
  hostname: string,
  now: number,
): Promise<LicenseStatus> {
  return (await inspectLicense(jwt, keys, hostname, now)).status;
}

/** Up to eight quoted host names: the reason goes into /status and the log, so it stays one short line. */
function namedHosts(hosts: readonly string[]): string {
  const shown = hosts.slice(0, 8).map((h) => `"${h}"`);
  if (hosts.length > shown.length) shown.push(`and ${hosts.length - shown.length} more`);
  return shown.join(', ');
}

function decodeQuietly(text: string): Record<string, unknown> | undefined {
  try {
    return decodeJwt(text) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}
