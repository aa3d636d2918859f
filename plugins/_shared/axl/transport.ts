// HTTPS (and, for phones only, plain HTTP) toward a managed node: TLS always verified (pinned CA or certificate, else the system CAs),
// Basic auth, keep-alive, and bounded retries with backoff for transient network errors.
import { createHash, X509Certificate } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { request as httpRequest } from 'node:http';
import { Agent, request as httpsRequest } from 'node:https';
import type { PeerCertificate } from 'node:tls';
import { checkServerIdentity } from 'node:tls';
import { ConnectivityError } from '../../../kernel/sdk/index.ts';

export interface NodeEndpoint {
  host: string;
  port: number;
  username: string;
  password: string;
  /** PEM of a CA to trust for this node only. */
  caCertPem?: string;
  /** PEM of the node's own certificate: pinned by fingerprint (a self-signed Tomcat certificate). */
  certPem?: string;
}

export interface RetryPolicy {
  /** Delays before each retry; ARCHITECTURE.md: 0.5 s, 1 s, 2 s. Tests pass small values. */
  backoffMs: readonly number[];
}

export const DEFAULT_RETRY: RetryPolicy = { backoffMs: [500, 1000, 2000] };

/** Jitter spreads retries of many clients over +/-25 % of the step so they do not hit the node together. */
export function jittered(ms: number): number {
  return Math.round(ms * (0.75 + Math.random() * 0.5));
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Agent options that verify TLS; there is deliberately no way to turn verification off. */
export function tlsAgent(node: NodeEndpoint): Agent {
  const pinned = node.certPem ? fingerprint(node.certPem) : undefined;
  return new Agent({
    keepAlive: true,
    maxSockets: 4,
    ...(node.caCertPem || node.certPem ? { ca: [node.caCertPem, node.certPem].filter(isString) } : {}),
    checkServerIdentity: (host: string, cert: PeerCertificate): Error | undefined => {
      // A pinned certificate is the node's identity itself: it replaces the name check, as with SSH host keys.
      if (pinned) {
        const got = cert.raw ? createHash('sha256').update(cert.raw).digest('hex') : '';
        return got === pinned ? undefined : new Error(`certificate of ${host} does not match the pinned one`);
      }
      return checkServerIdentity(host, cert);
    },
  });
}

function isString(v: string | undefined): v is string {
  return typeof v === 'string';
}

function fingerprint(pem: string): string {
  return createHash('sha256').update(new X509Certificate(pem).raw).digest('hex');
}

export interface HttpAnswer {
  status: number;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

export interface HttpRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  timeoutMs: number;
  /** Answers over this many bytes are abandoned (the caller names the error). */
  maxBytes?: number;
  onData?: (received: number, total: number | undefined) => void;
  /** False leaves the Basic header out (a request riding on a session cookie). Default true. */
  basicAuth?: boolean;
}

export class ResponseTooLargeError extends Error {}

const TRANSIENT = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ECONNABORTED',
  'UND_ERR_SOCKET',
]);

export function isTransient(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && TRANSIENT.has(code);
}

/** One HTTPS exchange; no retry here. */
export function httpsExchange(node: NodeEndpoint, agent: Agent, req: HttpRequest): Promise<HttpAnswer> {
  return exchange(httpsRequest, node, agent, req);
}

/**
 * The same over plain HTTP, for the one device that has nothing else (most phones' web server). No
 * keep-alive agent: one request per call, and an idle socket would outlive it.
 */
export function httpExchange(node: NodeEndpoint, req: HttpRequest): Promise<HttpAnswer> {
  return exchange(httpRequest, node, false, req);
}

function exchange(
  send: typeof httpsRequest | typeof httpRequest,
  node: NodeEndpoint,
  agent: Agent | false,
  req: HttpRequest,
): Promise<HttpAnswer> {
  const auth = Buffer.from(`${node.username}:${node.password}`).toString('base64');
  const headers: Record<string, string> = {
    ...(req.basicAuth === false ? {} : { authorization: `Basic ${auth}` }),
    ...req.headers,
  };
  if (req.body !== undefined) headers['content-length'] = String(Buffer.byteLength(req.body));
  return new Promise((resolve, reject) => {
    const r = send(
      { host: node.host, port: node.port, path: req.path, method: req.method, headers, agent },
      (res: IncomingMessage) => {
        const total = Number(res.headers['content-length']) || undefined;
        if (req.maxBytes !== undefined && total !== undefined && total > req.maxBytes) {
          res.destroy();
          reject(new ResponseTooLargeError(`answer of ${total} bytes exceeds ${req.maxBytes}`));
          return;
        }
        const chunks: Buffer[] = [];
        let received = 0;
        res.on('data', (d: Buffer) => {
          received += d.length;
          if (req.maxBytes !== undefined && received > req.maxBytes) {
            res.destroy(new ResponseTooLargeError(`answer exceeds ${req.maxBytes} bytes`));
            return;
          }
          chunks.push(d);
          req.onData?.(received, total);
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      },
    );
    r.setTimeout(req.timeoutMs, () => {
      const err = new Error(`no answer from ${node.host}:${node.port} within ${req.timeoutMs} ms`);
      (err as Error & { code: string }).code = 'ETIMEDOUT';
      r.destroy(err);
    });
    r.on('error', reject);
    if (req.body !== undefined) r.write(req.body);
    r.end();
  });
}

/**
 * Runs `attempt`, retrying transient network errors with the policy's backoff, then gives up with a
 * ConnectivityError. TLS failures are not transient: a wrong certificate does not get better by waiting.
 */
export async function withNetworkRetry<T>(
  node: NodeEndpoint,
  policy: RetryPolicy,
  attempt: () => Promise<T>,
): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      return await attempt();
    } catch (err) {
      if (isProtocolMismatch(err)) {
        throw new ConnectivityError(
          `no TLS handshake with ${node.host}:${node.port} (${(err as Error).message}): the port does not seem to serve HTTPS`,
          { cause: err },
        );
      }
      if (isTlsError(err)) {
        throw new ConnectivityError(
          `TLS verification of ${node.host}:${node.port} failed (${(err as Error).message}); pin the node's CA or certificate`,
          { cause: err },
        );
      }
      if (!isTransient(err)) throw err;
      const delay = policy.backoffMs[i];
      if (delay === undefined) {
        throw new ConnectivityError(
          `${node.host}:${node.port} is unreachable after ${i + 1} attempts (${(err as { code?: string }).code ?? 'error'}: ${(err as Error).message})`,
          { cause: err },
        );
      }
      await sleep(jittered(delay));
    }
  }
}

function isTlsError(err: unknown): boolean {
  const code = String((err as { code?: unknown }).code ?? '');
  const msg = String((err as { message?: unknown }).message ?? '');
  return (
    /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS|ERR_SSL/.test(code) || /pinned one|certificate/i.test(msg)
  );
}

/** HTTPS spoken to a plain-HTTP (or non-TLS) port: OpenSSL sees no TLS record. */
function isProtocolMismatch(err: unknown): boolean {
  const code = String((err as { code?: unknown }).code ?? '');
  const msg = String((err as { message?: unknown }).message ?? '');
  return code === 'EPROTO' || /wrong version number|packet length too long|SSL routines/i.test(msg);
}
