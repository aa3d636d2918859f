/**
 * Base of the closed set of coded errors. `expose` decides whether the message may reach a caller:
 * an unexposed error is answered with an opaque reference that app.log explains.
 */
export abstract class KernelError extends Error {
  abstract readonly code: string;
  abstract readonly status: number;
  readonly expose: boolean = true;
  /** Seconds the caller should wait before retrying (RATE_LIMITED, AUTH_BLOCKED). */
  retryAfterSeconds?: number;
  /**
   * Facts a caller acts on, beside the message (an untrusted certificate's fingerprint and validity):
   * shown as `details` in the tool result, so never anything secret.
   */
  details?: Record<string, unknown>;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

export function isKernelError(err: unknown): err is KernelError {
  return err instanceof KernelError;
}
