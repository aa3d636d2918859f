import { KernelError } from './kernel-error.ts';

export { KernelError, isKernelError } from './kernel-error.ts';

// The spec's error table (functional-spec.md, Errors), one class per code.

export class AuthFailedError extends KernelError {
  readonly code = 'AUTH_FAILED';
  readonly status = 401;
}
export class AuthRevokedError extends KernelError {
  readonly code = 'AUTH_REVOKED';
  readonly status = 401;
}
export class AuthExpiredError extends KernelError {
  readonly code = 'AUTH_EXPIRED';
  readonly status = 401;
}
export class AuthBlockedError extends KernelError {
  readonly code = 'AUTH_BLOCKED';
  readonly status = 429;
  constructor(message: string, retryAfterSeconds: number) {
    super(message);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}
export class RateLimitedError extends KernelError {
  readonly code = 'RATE_LIMITED';
  readonly status = 429;
  constructor(message: string, retryAfterSeconds: number) {
    super(message);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}
export class ProfilePermissionError extends KernelError {
  readonly code = 'ProfilePermissionError';
  readonly status = 403;
}
export class ConfigError extends KernelError {
  readonly code = 'ConfigError';
  readonly status = 500;
}
export class LicenseError extends KernelError {
  readonly code = 'LicenseError';
  readonly status = 503;
}
export class CredentialError extends KernelError {
  readonly code = 'CredentialError';
  readonly status = 400;
}
export class ConnectivityError extends KernelError {
  readonly code = 'ConnectivityError';
  readonly status = 400;
}
export class AXLError extends KernelError {
  readonly code = 'AXLError';
  readonly status = 400;
}
export class SSHError extends KernelError {
  readonly code = 'SSHError';
  readonly status = 400;
}
export class RISError extends KernelError {
  readonly code = 'RISError';
  readonly status = 400;
}
export class CUPIError extends KernelError {
  readonly code = 'CUPIError';
  readonly status = 400;
}
export class IntegrityError extends KernelError {
  readonly code = 'IntegrityError';
  readonly status = 500;
}

// Codes the spec does not name but an HTTP server needs; documented in the README's error table.

/** Host or Origin header failed the DNS-rebinding guard. */
export class TransportRejectedError extends KernelError {
  readonly code = 'TRANSPORT_REJECTED';
  readonly status = 403;
}
/**
 * A managed node's address is refused by the node address policy (NODE_ALLOWED_NETWORKS and the
 * addresses always refused): nothing was sent, whether or not anything listens there.
 */
export class NodeAddressDeniedError extends KernelError {
  readonly code = 'NODE_ADDRESS_DENIED';
  readonly status = 403;
}
export class BadRequestError extends KernelError {
  readonly code = 'BAD_REQUEST';
  readonly status = 400;
}
export class NotFoundError extends KernelError {
  readonly code = 'NOT_FOUND';
  readonly status = 404;
}
export class MethodNotAllowedError extends KernelError {
  readonly code = 'METHOD_NOT_ALLOWED';
  readonly status = 405;
}
export class PayloadTooLargeError extends KernelError {
  readonly code = 'PAYLOAD_TOO_LARGE';
  readonly status = 413;
}
/** A startup step failed for a reason other than .env (corrupt key, unreadable certificate...). */
export class StartupError extends KernelError {
  readonly code = 'STARTUP_FAILED';
  readonly status = 500;
}
/** The audit record could not be written, so the operation it would record is refused. */
export class AuditUnavailableError extends KernelError {
  readonly code = 'AUDIT_UNAVAILABLE';
  readonly status = 503;
}
/** A report cannot be exported because the PDF renderer (Chromium) is not available. */
export class ExportUnavailableError extends KernelError {
  readonly code = 'EXPORT_UNAVAILABLE';
  readonly status = 503;
}
/** A report is over the export bounds or too complex to render within the renderer's time and memory. */
export class ReportTooComplexError extends KernelError {
  readonly code = 'REPORT_TOO_COMPLEX';
  readonly status = 422;
}
/** A write or export would take the client's reports past REPORTS_MAX_PER_CLIENT or REPORTS_MAX_BYTES_PER_CLIENT. */
export class ReportQuotaExceededError extends KernelError {
  readonly code = 'REPORT_QUOTA_EXCEEDED';
  readonly status = 403;
}
/** A new MCP task would pass MCP_TASKS_MAX_PER_CLIENT or MCP_TASKS_MAX_TOTAL, and every task held still runs. */
export class TaskLimitError extends KernelError {
  readonly code = 'TASK_LIMIT';
  readonly status = 429;
}
/**
 * A VOS serviceability SOAP API (PerfMon, ControlCenterServices, log collection...) answered a fault, an
 * answer that is not its own, or its per-node budget is spent (then `retryAfterSeconds` says when).
 */
export class ServiceabilityError extends KernelError {
  readonly code = 'SERVICEABILITY_ERROR';
  readonly status = 400;
  constructor(message: string, options?: { cause?: unknown; retryAfterSeconds?: number }) {
    super(message, options);
    if (options?.retryAfterSeconds !== undefined) this.retryAfterSeconds = options.retryAfterSeconds;
  }
}
/**
 * A change's `plan_id` is unknown: never issued, dropped once expired past its grace, or another
 * client's (answered the same, so a plan_id says nothing about other clients).
 */
export class PlanNotFoundError extends KernelError {
  readonly code = 'PLAN_NOT_FOUND';
  readonly status = 404;
}
/** A change's `plan_id` is past its lifetime (CHANGE_PLAN_TTL_SECONDS): preview the change again. */
export class PlanExpiredError extends KernelError {
  readonly code = 'PLAN_EXPIRED';
  readonly status = 410;
}
/** A change's `plan_id` was already used: a plan confirms one change, once. */
export class PlanUsedError extends KernelError {
  readonly code = 'PLAN_USED';
  readonly status = 409;
}
/** The call's arguments are not those the `plan_id` was previewed with: nothing was sent. */
export class PlanMismatchError extends KernelError {
  readonly code = 'PLAN_MISMATCH';
  readonly status = 409;
}
/** The object changed on the node since the preview (its before-image differs): nothing was sent. */
export class ChangedSincePreviewError extends KernelError {
  readonly code = 'CHANGED_SINCE_PREVIEW';
  readonly status = 409;
}
/** The change cannot be undone: a restart, a CLI command, a failed change, nothing to put back. */
export class NoInverseError extends KernelError {
  readonly code = 'NO_INVERSE';
  readonly status = 422;
}
/** The change was undone already (the journal holds a change with its id as `undo_of`). */
export class AlreadyUndoneError extends KernelError {
  readonly code = 'ALREADY_UNDONE';
  readonly status = 409;
}
/** The object changed on the node since the change to undo (it differs from the after-image): nothing was sent. */
export class ChangedSinceChangeError extends KernelError {
  readonly code = 'CHANGED_SINCE_CHANGE';
  readonly status = 409;
}
/**
 * A change this profile must confirm (a destructive one, or any under `writes: confirm`) came without a
 * `plan_id` and the client cannot ask its person: preview it with `dry_run: true`, then repeat it with
 * the `plan_id`. Nothing was sent.
 */
export class ConfirmationRequiredError extends KernelError {
  readonly code = 'CONFIRMATION_REQUIRED';
  readonly status = 428;
}
/** The person declined (or cancelled) the change shown in their client: nothing was sent. */
export class ConfirmationDeclinedError extends KernelError {
  readonly code = 'CONFIRMATION_DECLINED';
  readonly status = 409;
}
/**
 * The shared state store (STATE_BACKEND=redis://...) cannot be reached: what needs it (authentication,
 * rate limits, node limits, sessions) is refused, never decided without it. Recovery is automatic.
 */
export class StateStoreUnavailableError extends KernelError {
  readonly code = 'STATE_STORE_UNAVAILABLE';
  readonly status = 503;
  /** The connection is retried every 2 s at most, so a caller may try again after that (Retry-After). */
  override retryAfterSeconds?: number = 2;
}
/** The change journal cannot be written or read (disk full, unreadable file). */
export class JournalUnavailableError extends KernelError {
  readonly code = 'JOURNAL_UNAVAILABLE';
  readonly status = 503;
}
/**
 * A request that is not a read, in a call using a credential stored read-only (`read_only` in the
 * vault): refused before anything was sent.
 */
export class ReadOnlyCredentialError extends KernelError {
  readonly code = 'READ_ONLY_CREDENTIAL';
  readonly status = 403;
}
/** Anything unexpected: the caller sees only the reference, app.log has the detail. */
export class InternalError extends KernelError {
  readonly code = 'INTERNAL_ERROR';
  readonly status = 500;
  override readonly expose = false;
}

/** Every code the kernel can answer with; a test keeps the README's table in step with it. */
export const ERROR_CODES = [
  'AUTH_FAILED',
  'AUTH_REVOKED',
  'AUTH_EXPIRED',
  'AUTH_BLOCKED',
  'RATE_LIMITED',
  'ProfilePermissionError',
  'ConfigError',
  'LicenseError',
  'CredentialError',
  'ConnectivityError',
  'AXLError',
  'SSHError',
  'RISError',
  'CUPIError',
  'IntegrityError',
  'SERVICEABILITY_ERROR',
  'TRANSPORT_REJECTED',
  'NODE_ADDRESS_DENIED',
  'BAD_REQUEST',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'PAYLOAD_TOO_LARGE',
  'STARTUP_FAILED',
  'AUDIT_UNAVAILABLE',
  'EXPORT_UNAVAILABLE',
  'REPORT_TOO_COMPLEX',
  'REPORT_QUOTA_EXCEEDED',
  'TASK_LIMIT',
  'PLAN_NOT_FOUND',
  'PLAN_EXPIRED',
  'PLAN_USED',
  'PLAN_MISMATCH',
  'CHANGED_SINCE_PREVIEW',
  'CONFIRMATION_REQUIRED',
  'CONFIRMATION_DECLINED',
  'NO_INVERSE',
  'ALREADY_UNDONE',
  'CHANGED_SINCE_CHANGE',
  'JOURNAL_UNAVAILABLE',
  'READ_ONLY_CREDENTIAL',
  'STATE_STORE_UNAVAILABLE',
  'INTERNAL_ERROR',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];
