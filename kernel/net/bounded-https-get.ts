// One GET over HTTPS to a URL someone else chose (a client metadata document): the connection goes
// only where the address guard allows, through its own resolution (what was checked is what is
// connected to), with a deadline for the whole exchange and a cap on the body. Redirects are never
// followed: the caller sees the status and decides.
import type { ClientRequest, IncomingHttpHeaders } from 'node:http';
import { request } from 'node:https';
import { isIP } from 'node:net';
import { NodeAddressDeniedError } from '../errors/index.ts';
import type { NodeAddressGuard } from './node-address-policy.ts';

export interface BoundedGetOptions {
  guard: NodeAddressGuard;
  maxBytes: number;
  timeoutMs: number;
  /** Trusted CAs instead of Node's (tests); Node's default trust otherwise. */
  ca?: string;
  accept: string;
}

export type BoundedGetFailure = 'denied_address' | 'unreachable' | 'tls' | 'timeout' | 'too_large';

export type BoundedGetResult =
  | { ok: true; status: number; headers: IncomingHttpHeaders; body: Buffer }
  | { ok: false; reason: BoundedGetFailure; message: string };

/** TLS verification failures: reported as such, so "not trusted" is not mistaken for "not there". */
const TLS_CODES = /^(ERR_TLS_|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|ERR_SSL_)/;

/** GETs `url` (https only; the caller checked it); the body is read only for a 200 answer. */
export function boundedHttpsGet(url: URL, o: BoundedGetOptions): Promise<BoundedGetResult> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = url.port === '' ? 443 : Number(url.port);
  let dial: ReturnType<NodeAddressGuard['dialOptions']>;
  try {
    dial = o.guard.dialOptions(host, port);
  } catch (err) {
    if (err instanceof NodeAddressDeniedError)
      return Promise.resolve({ ok: false, reason: 'denied_address', message: err.message });
    throw err;
  }
  return new Promise((resolve) => {
    let settled = false;
    let req: ClientRequest | undefined;
    const finish = (r: BoundedGetResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      req?.destroy();
      resolve(r);
    };
    const deadline = setTimeout(
      () => finish({ ok: false, reason: 'timeout', message: `no complete answer within ${o.timeoutMs} ms` }),
      o.timeoutMs,
    );
    try {
      req = request(
        {
          host,
          port,
          path: `${url.pathname}${url.search}`,
          method: 'GET',
          headers: { accept: o.accept, 'accept-encoding': 'identity', 'user-agent': 'uc-mcp-server' },
          ...dial,
          ...(o.ca ? { ca: o.ca } : {}),
          ...(isIP(host) ? {} : { servername: host }),
          agent: false,
        },
        (res) => {
          const status = res.statusCode ?? 0;
          if (status !== 200) {
            finish({ ok: true, status, headers: res.headers, body: Buffer.alloc(0) });
            return;
          }
          const tooLarge = (): BoundedGetResult => ({
            ok: false,
            reason: 'too_large',
            message: `the answer is larger than ${o.maxBytes} bytes`,
          });
          if (Number(res.headers['content-length'] ?? 0) > o.maxBytes) {
            finish(tooLarge());
            return;
          }
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > o.maxBytes) finish(tooLarge());
            else chunks.push(chunk);
          });
          res.on('end', () =>
            finish({ ok: true, status, headers: res.headers, body: Buffer.concat(chunks) }),
          );
          res.on('error', (err) => finish(failure(err)));
        },
      );
    } catch (err) {
      // Options node refuses outright (a host it cannot use): the same answer as a failed connection.
      finish(failure(err as Error));
      return;
    }
    req.on('error', (err) => finish(failure(err)));
    req.end();
  });
}

function failure(err: Error & { code?: string }): BoundedGetResult {
  if (err instanceof NodeAddressDeniedError)
    return { ok: false, reason: 'denied_address', message: err.message };
  const code = err.code ?? '';
  if (TLS_CODES.test(code))
    return { ok: false, reason: 'tls', message: `the server's certificate was not accepted (${code})` };
  return { ok: false, reason: 'unreachable', message: `could not be reached (${code || err.message})` };
}
