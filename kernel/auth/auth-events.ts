import type { AuditLog } from '../audit/audit-log.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { IpBlacklist } from './ip-blacklist.ts';

export type AuthFailureStatus = 'AUTH_FAILED' | 'AUTH_EXPIRED' | 'AUTH_REVOKED';

export interface AuthFailure {
  status: AuthFailureStatus;
  ip: string;
  /** Set only when the caller was proven (a valid signature, a known refresh token). */
  client?: string;
  /** Short machine-readable cause: bad_signature, unknown_kid, bad_client_credentials... */
  reason: string;
  /**
   * Whether the failure looks like guessing and so counts toward the IP blacklist. Tokens this server
   * signed that are merely expired or revoked do not; neither does a request that carries no credentials.
   */
  counts: boolean;
  /**
   * The failure was reserved and counted before the check ran (the secret verification gate): only the
   * listing is decided here, so a failure is never counted twice.
   */
  counted?: boolean;
  [field: string]: unknown;
}

/**
 * The AUTH audit records, the failure metrics and the blacklist's failure counting, in one place so
 * every endpoint reports outcomes the same way. Never pass a token, secret, code or verifier here.
 */
export class AuthEvents {
  constructor(
    private readonly audit: AuditLog,
    private readonly metrics: Metrics,
    private readonly blacklist: IpBlacklist,
  ) {}

  ok(fields: { ip: string; client: string; [field: string]: unknown }): void {
    this.audit.write({ event: 'AUTH', status: 'AUTH_OK', ...fields });
  }

  /**
   * AUTH_OK held back while `next` runs (AuditLog.holding): it goes out with the request's next audit
   * record, in the same write and before it, or when `next` settles if none comes.
   */
  okHolding<T>(
    fields: { ip: string; client: string; [field: string]: unknown },
    next: () => Promise<T>,
  ): Promise<T> {
    return this.audit.holding({ event: 'AUTH', status: 'AUTH_OK', ...fields }, next);
  }

  async failure(f: AuthFailure): Promise<void> {
    const { status, ip, client, reason, counts, counted = false, ...extra } = f;
    this.audit.write({ event: 'AUTH', status, ip, ...(client ? { client } : {}), reason, ...extra });
    this.metrics.authFailures.inc();
    this.metrics.authFailuresByClient.inc({ client: client ?? 'unknown', status });
    if (counts || counted) await this.blacklist.recordFailure(ip, client, { counted });
  }

  /** A request refused before its credentials were looked at (listed address, too many attempts). */
  blocked(fields: {
    ip: string;
    path: string;
    reason: string;
    retry_after_s: number;
    [field: string]: unknown;
  }): void {
    this.audit.write({ event: 'AUTH', status: 'AUTH_BLOCKED', ...fields });
  }

  issued(fields: {
    ip?: string;
    client: string;
    grant_type: string;
    auth_method?: string;
    jti: string;
    exp: number;
    scope: string;
    /** The application the token was issued through (`azp` and `client_app` of the token). */
    azp?: string;
    client_app?: string | null;
  }): void {
    const { exp, ...rest } = fields;
    this.audit.write({
      event: 'AUTH',
      status: 'TOKEN_ISSUED',
      ...rest,
      expires_at: new Date(exp * 1000).toISOString(),
    });
  }

  revoked(fields: {
    ip?: string;
    client: string;
    reason: string;
    jtis: string[];
    [field: string]: unknown;
  }): void {
    const { jtis, ...rest } = fields;
    this.audit.write({ event: 'AUTH', status: 'TOKEN_REVOKED', ...rest, jti: jtis, count: jtis.length });
  }

  /**
   * An application's life: registered (RFC 7591), refused registration, metadata document fetched,
   * expired unused, removed by the operator. `azp` is its client_id, `client_app` its name.
   */
  app(
    status:
      'APP_REGISTERED' | 'APP_REGISTRATION_REFUSED' | 'APP_DOCUMENT_FETCHED' | 'APP_EXPIRED' | 'APP_REMOVED',
    fields: { ip?: string; azp?: string; client_app?: string | null; [field: string]: unknown },
  ): void {
    this.audit.write({ event: 'AUTH', status, ...fields });
  }

  /** A revocation request that revoked nothing (another client's token, an unknown one): RFC 7009 still answers 200. */
  revokeRefused(fields: { ip: string; client: string; reason: string }): void {
    this.audit.write({ event: 'AUTH', status: 'TOKEN_REVOKE_REFUSED', ...fields });
  }
}
