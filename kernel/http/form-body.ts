import type { KernelContext } from './state.ts';

/** Why a form body was refused, with the HTTP status that says so. */
export class FormBodyError extends Error {
  constructor(
    readonly status: 400 | 413 | 415,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Reads an application/x-www-form-urlencoded body (the only kind OAuth endpoints take), at most
 * `maxBytes`. A parameter sent twice is refused (RFC 6749 section 3.1), as is any other content type.
 */
export async function readForm(ctx: KernelContext, maxBytes: number): Promise<Map<string, string>> {
  const type = (ctx.get('content-type').split(';')[0] ?? '').trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded')
    throw new FormBodyError(415, 'the body must be application/x-www-form-urlencoded');
  const declared = Number(ctx.get('content-length') || '0');
  if (declared > maxBytes) {
    ctx.set('Connection', 'close');
    throw new FormBodyError(413, `the body is larger than ${maxBytes} bytes`);
  }

  const text = (await readCapped(ctx, maxBytes)).toString('utf8');
  const form = new Map<string, string>();
  for (const [key, value] of new URLSearchParams(text)) {
    if (form.has(key)) throw new FormBodyError(400, `parameter ${key} is repeated`);
    form.set(key, value);
  }
  return form;
}

/** Query parameters of a GET request, refusing repeats the same way. */
export function readQuery(ctx: KernelContext): Map<string, string> {
  const params = new Map<string, string>();
  for (const [key, value] of new URLSearchParams(ctx.querystring)) {
    if (params.has(key)) throw new FormBodyError(400, `parameter ${key} is repeated`);
    params.set(key, value);
  }
  return params;
}

/**
 * Collects the body up to `maxBytes` (FormBodyError 413 past it). Past the cap it stops listening
 * (without destroying the socket, so the 413 still reaches the caller) and the connection is closed
 * after the answer.
 */
export function readCapped(ctx: KernelContext, maxBytes: number): Promise<Buffer> {
  const req = ctx.req;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > maxBytes) {
        cleanup();
        req.pause();
        ctx.set('Connection', 'close');
        reject(new FormBodyError(413, `the body is larger than ${maxBytes} bytes`));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      cleanup();
      resolve(Buffer.concat(chunks));
    };
    const onError = (err: Error): void => {
      cleanup();
      reject(err);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}
