import { request as httpsRequest } from 'node:https';
import { Agent, fetch as undiciFetch, type RequestInit, type Response } from 'undici';

/**
 * fetch over HTTPS that trusts exactly the given CA/certificate (the server's self-signed one), with
 * certificate verification on: tests never switch verification off.
 */
export function pinnedFetch(
  caPem: string,
  extra: {
    minVersion?: 'TLSv1.2' | 'TLSv1.3';
    maxVersion?: 'TLSv1.2' | 'TLSv1.3';
    /** Source address on this machine (another loopback address, to be another caller). */
    localAddress?: string;
  } = {},
) {
  const { localAddress, ...tls } = extra;
  const dispatcher = new Agent({ connect: { ca: caPem, ...tls }, ...(localAddress ? { localAddress } : {}) });
  const fn = (input: string | URL, init: RequestInit = {}): Promise<Response> =>
    undiciFetch(input, { ...init, dispatcher });
  return Object.assign(fn, { close: () => dispatcher.close() });
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * One HTTPS request through node:https, which (unlike fetch) sends a caller-chosen Host header as is.
 * Verification stays on: the certificate is checked against `caPem` for the name `servername`.
 */
export function rawHttpsRequest(
  url: string,
  opts: {
    caPem: string;
    method?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    servername?: string;
  },
): Promise<RawResponse> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      {
        host: u.hostname,
        port: u.port,
        path: `${u.pathname}${u.search}`,
        method: opts.method ?? 'GET',
        headers: opts.headers ?? {},
        ca: opts.caPem,
        servername: opts.servername ?? 'localhost',
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}
