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
  'INTERNAL_ERROR',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];
