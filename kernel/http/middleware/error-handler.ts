import type { AppLogger } from '../../logging/app-log.ts';
import { InternalError, KernelError, isKernelError } from '../../errors/index.ts';
import type { KernelMiddleware } from '../state.ts';
import { loggablePath } from '../loggable-path.ts';

/** HTTP statuses Koa or its helpers may raise themselves, mapped into the closed set of codes. */
const STATUS_CODES: Record<number, string> = {
  400: 'BAD_REQUEST',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  413: 'PAYLOAD_TOO_LARGE',
};

/**
 * Turns every failure into `{ error, message, request_id }`. A KernelError shows its own message when
 * exposed; anything else is logged with its stack in app.log and answered with an opaque reference,
 * so no stack, path, hostname or secret reaches a caller.
 */
export function errorHandler(log: AppLogger): KernelMiddleware {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        ctx.status = 404;
        ctx.body = { error: 'NOT_FOUND', message: 'no such endpoint', request_id: ctx.state.requestId };
      }
    } catch (err) {
      const requestId = ctx.state.requestId;
      let status: number;
      let body: { error: string; message: string; request_id: string };
      if (isKernelError(err) && err.expose) {
        status = err.status;
        body = { error: err.code, message: err.message, request_id: requestId };
        if (err.retryAfterSeconds !== undefined)
          ctx.set('Retry-After', String(Math.ceil(err.retryAfterSeconds)));
        if (status >= 500) log.error({ err, requestId }, 'request failed');
      } else if (isHttpError(err) && STATUS_CODES[err.status] && err.expose) {
        status = err.status;
        body = { error: STATUS_CODES[err.status] as string, message: err.message, request_id: requestId };
      } else {
        status = err instanceof KernelError ? err.status : 500;
        log.error({ err, requestId, path: loggablePath(ctx.path), method: ctx.method }, 'unexpected error');
        const internal = new InternalError(`internal error; reference ${requestId}`);
        body = { error: internal.code, message: internal.message, request_id: requestId };
      }
      ctx.status = status;
      ctx.type = 'application/json';
      ctx.body = body;
    }
  };
}

function isHttpError(err: unknown): err is { status: number; expose: boolean; message: string } {
  return typeof err === 'object' && err !== null && typeof (err as { status?: unknown }).status === 'number';
}
