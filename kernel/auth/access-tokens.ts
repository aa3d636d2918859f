import { randomUUID } from 'node:crypto';
import { SignJWT, decodeProtectedHeader, errors, jwtVerify, type JWTPayload } from 'jose';
import type { ServerKeys } from '../keys/rsa-keys.ts';
import type { IssuedTokenLedger } from './issued-ledger.ts';
import type { OAuthUrls } from './urls.ts';
import { VerifiedTokenCache, type VerificationContext } from './verified-token-cache.ts';

/** Longer than any token this server issues by far; anything bigger is refused unparsed. */
export const MAX_TOKEN_CHARS = 4096;
/** Clock skew tolerated on exp (and iat/nbf). */
const CLOCK_TOLERANCE_S = 30;
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;
const TYP = 'at+jwt';

/** The RFC 9068 claims of a verified access token. */
export interface AccessTokenClaims {
  iss: string;
  aud: string;
  sub: string;
  client_id: string;
  jti: string;
  iat: number;
  exp: number;
  scope: string;
  /** The application the token was issued through (OIDC's authorized party), when there was one. */
  azp?: string;
  /** That application's name, when it gave one. */
  client_app?: string;
}

/** The application a token is issued through: its client_id and name. */
export interface AppBinding {
  id: string;
  name: string | null;
}

/** Why a token was refused; `client` only when the signature proved who the token was issued to. */
export class TokenRejected extends Error {
  constructor(
    readonly status: 'AUTH_FAILED' | 'AUTH_EXPIRED',
    readonly reason: string,
    readonly client?: string,
  ) {
    super(`${status}: ${reason}`);
  }
}

/**
 * Issues and verifies access tokens: RFC 9068 JWTs signed RS256 with the server key, `kid` its
 * thumbprint. Verification trusts only the current key, so a token signed by any other key (a rotated
 * one included) is refused. A token verified once is served from a bounded cache until its exp, under
 * the key and issuer it was verified with (verified-token-cache.ts): the RS256 check dominated the cost
 * of every request.
 */
export class AccessTokens {
  /** Verified claims; revocation and everything else a caller checks after verify() stays per use. */
  readonly verified: VerifiedTokenCache<AccessTokenClaims>;

  constructor(
    private readonly keys: ServerKeys,
    private readonly urls: () => OAuthUrls,
    private readonly ledger: IssuedTokenLedger,
    private readonly now: () => number = Date.now,
  ) {
    this.verified = new VerifiedTokenCache(now);
  }

  async issue(
    client: string,
    scope: string,
    ttlSeconds: number,
    app?: AppBinding,
  ): Promise<{ token: string; jti: string; exp: number }> {
    const { issuer, resource } = this.urls();
    const jti = randomUUID();
    const iat = Math.floor(this.now() / 1000);
    const exp = iat + ttlSeconds;
    const appClaims = app ? { azp: app.id, ...(app.name !== null ? { client_app: app.name } : {}) } : {};
    const token = await new SignJWT({ client_id: client, scope, ...appClaims })
      .setProtectedHeader({ alg: 'RS256', typ: TYP, kid: this.keys.kid })
      .setIssuer(issuer)
      .setAudience(resource)
      .setSubject(client)
      .setJti(jti)
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .sign(this.keys.privateKey);
    await this.ledger.record(client, jti, exp);
    return { token, jti, exp };
  }

  /** Verifies signature and claims; throws TokenRejected with the reason. Revocation is the caller's. */
  async verify(token: string): Promise<AccessTokenClaims> {
    if (token.length === 0) throw new TokenRejected('AUTH_FAILED', 'empty');
    if (token.length > MAX_TOKEN_CHARS) throw new TokenRejected('AUTH_FAILED', 'oversized');
    const { issuer, resource } = this.urls();
    const context: VerificationContext = {
      key: this.keys.publicKey,
      kid: this.keys.kid,
      issuer,
      audience: resource,
    };
    const cached = this.verified.get(token, context);
    if (cached !== undefined) return { ...cached };
    const claims = await this.verifyUncached(token, context);
    this.verified.set(token, context, claims);
    return claims;
  }

  private async verifyUncached(token: string, context: VerificationContext): Promise<AccessTokenClaims> {
    if (!JWT_SHAPE.test(token)) throw new TokenRejected('AUTH_FAILED', 'malformed');
    let header: ReturnType<typeof decodeProtectedHeader>;
    try {
      header = decodeProtectedHeader(token);
    } catch {
      throw new TokenRejected('AUTH_FAILED', 'malformed');
    }
    if (header.alg !== 'RS256') throw new TokenRejected('AUTH_FAILED', 'alg_not_allowed');
    if (header.kid !== context.kid) throw new TokenRejected('AUTH_FAILED', 'unknown_kid');
    if (typeof header.typ !== 'string' || header.typ.toLowerCase().replace(/^application\//, '') !== TYP)
      throw new TokenRejected('AUTH_FAILED', 'wrong_type');

    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, context.key, {
        algorithms: ['RS256'],
        issuer: context.issuer,
        audience: context.audience,
        clockTolerance: CLOCK_TOLERANCE_S,
        currentDate: new Date(this.now()),
        requiredClaims: ['sub', 'client_id', 'jti', 'iat', 'exp'],
      }));
    } catch (err) {
      throw rejection(err);
    }
    return claimsOf(payload);
  }
}

function rejection(err: unknown): TokenRejected {
  if (err instanceof errors.JWTExpired) {
    const sub = err.payload.sub;
    return new TokenRejected('AUTH_EXPIRED', 'expired', typeof sub === 'string' ? sub : undefined);
  }
  if (err instanceof errors.JWSSignatureVerificationFailed)
    return new TokenRejected('AUTH_FAILED', 'bad_signature');
  if (err instanceof errors.JWTClaimValidationFailed) {
    const reason =
      err.claim === 'iss'
        ? 'wrong_issuer'
        : err.claim === 'aud'
          ? 'wrong_audience'
          : err.reason === 'missing'
            ? 'missing_claim'
            : `invalid_${err.claim}`;
    return new TokenRejected('AUTH_FAILED', reason);
  }
  if (err instanceof errors.JOSEAlgNotAllowed) return new TokenRejected('AUTH_FAILED', 'alg_not_allowed');
  return new TokenRejected('AUTH_FAILED', 'malformed');
}

function claimsOf(p: JWTPayload): AccessTokenClaims {
  const { iss, aud, sub, jti, iat, exp } = p;
  const clientId = p.client_id;
  const scope = p.scope ?? '';
  const { azp, client_app } = p;
  if (
    typeof iss !== 'string' ||
    typeof aud !== 'string' ||
    typeof sub !== 'string' ||
    typeof jti !== 'string' ||
    jti.length === 0 ||
    typeof iat !== 'number' ||
    typeof exp !== 'number' ||
    typeof scope !== 'string' ||
    clientId !== sub ||
    (azp !== undefined && typeof azp !== 'string') ||
    (client_app !== undefined && (typeof client_app !== 'string' || azp === undefined))
  )
    throw new TokenRejected('AUTH_FAILED', 'invalid_claims');
  return {
    iss,
    aud,
    sub,
    client_id: clientId,
    jti,
    iat,
    exp,
    scope,
    ...(azp !== undefined ? { azp } : {}),
    ...(typeof client_app === 'string' ? { client_app } : {}),
  };
}
