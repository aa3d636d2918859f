// HTTPS (and, for phones only, plain HTTP) toward a managed node: TLS always verified (pinned CA or certificate, else the system CAs),
// Basic auth, keep-alive, and bounded retries with backoff for transient network errors.
import { createHash, X509Certificate } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { request as httpRequest } from 'node:http';
import { Agent, request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { PeerCertificate } from 'node:tls';
import { checkServerIdentity } from 'node:tls';
import {
  ConnectivityError,
  currentNodeRequests,
  DENY_LIST_ONLY,
  isKernelError,
  type KernelError,
  type NodeAddressGuard,
  type NodeIoSettings,
  type NodeService,
} from '../../../kernel/sdk/index.ts';
import { classifyNodeRequest } from '../changes/node-request-class.ts';
import { tlsRefusal } from './tls-mismatch.ts';
import { untilAborted } from '../node/abort.ts';

export interface NodeEndpoint {
  host: string;
  port: number;
  username: string;
  password: string;
  /** PEM of a CA to trust for this node only. */
  caCertPem?: string;
  /** PEM of the node's own certificate: pinned by fingerprint (a self-signed Tomcat certificate). */
  certPem?: string;
  /**
   * Trust on first use of the caller's vault, for a credential that pins nothing: `certPem` is then
   * the certificate trusted there (if any), and a refused handshake asks it for the refusal, which it
   * records as pending. See plugins/_shared/node/endpoint.ts.
   */
  certificateTrust?: CertificateTrustHook;
  /** Where nodes may be (`ctx.kernel.nodeAddresses`); unset: only the always-refused addresses are kept out. */
  addresses?: NodeAddressGuard;
}

/** What a refused handshake asks the caller's trust store: its refusal, or undefined to fall back. */
export interface CertificateTrustHook {
  refuse(presentedPem: string): KernelError | undefined;
}

export interface RetryPolicy {
  /**
   * Waits before each retry, exponential (ARCHITECTURE.md: 0.5 s, 1 s, 2 s) and jittered by +/-25 %:
   * their number is the most retries, so a request is tried `backoffMs.length + 1` times at most.
   */
  backoffMs: readonly number[];
  /**
   * The whole operation (every attempt and every wait) ends this long after it started, however slowly
   * the node trickles its answer: a stalled node costs at most this. Unset: only the attempts' timeouts.
   */
  budgetMs?: number;
}

/** NODE_RETRY_ATTEMPTS=4, NODE_RETRY_BASE_MS=500, NODE_BUDGET_MS=120000 (kernel/config/schema.ts). */
export const DEFAULT_RETRY: RetryPolicy = { backoffMs: [500, 1000, 2000], budgetMs: 120_000 };

export type { NodeIoSettings };

/** `attempts - 1` waits doubling from `baseMs`: 4 attempts of 500 give 500, 1000, 2000. */
export function exponentialBackoff(attempts: number, baseMs: number): number[] {
  return Array.from({ length: Math.max(0, attempts - 1) }, (_, i) => baseMs * 2 ** i);
}

/** The retry policy the settings describe. */
export function retryPolicyOf(io: NodeIoSettings): RetryPolicy {
  return { backoffMs: exponentialBackoff(io.attempts, io.retryBaseMs), budgetMs: io.budgetMs };
}

/**
 * The retry policy and per-attempt timeout of an HTTP(S) client from the settings (unset: its
 * defaults), and the node address policy its connections follow.
 */
export function requestOptionsOf(
  io: NodeIoSettings | undefined,
  addresses?: NodeAddressGuard,
): {
  retry?: RetryPolicy;
  timeoutMs?: number;
  addresses?: NodeAddressGuard;
} {
  return {
    ...(io ? { retry: retryPolicyOf(io), timeoutMs: io.timeoutMs } : {}),
    ...(addresses ? { addresses } : {}),
  };
}

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
  /** The node service it goes to: the tool call's audit lists it, and its rate limit is charged. */
  service: NodeService;
  /** What it does, for the audit (the AXL or RIS operation); default `METHOD /path` without the query. */
  operation?: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Longest silence: connecting, waiting for the answer, or between two parts of it. */
  timeoutMs: number;
  /** Answers over this many bytes are abandoned (the caller names the error). */
  maxBytes?: number;
  onData?: (received: number, total: number | undefined) => void;
  /** False leaves the Basic header out (a request riding on a session cookie). Default true. */
  basicAuth?: boolean;
  /** Abandons the exchange (socket destroyed) when aborted: the time budget ran out, or the caller left. */
  signal?: AbortSignal;
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

/**
 * Failures that happened before the request could leave: no connection (or no TLS session) yet. Only
 * these are retried for a request that changes the node; any other failure may have followed its arrival.
 */
const NOT_SENT = new WeakSet<object>();

/** True unless the exchange failed before the request's first byte could reach the node. */
export function requestMayHaveReached(err: unknown): boolean {
  return !(typeof err === 'object' && err !== null && NOT_SENT.has(err));
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

async function exchange(
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
  // Reported before anything leaves: a spent rate-limit window throws here (a coded error, not retried).
  // Classified here, where every HTTP(S) request leaves, so no tool can send one unclassified (a call
  // using a read-only credential may send reads only).
  const ticket = await currentNodeRequests().request({
    service: req.service,
    operation: req.operation ?? `${req.method} ${req.path.split('?')[0] ?? ''}`,
    address: hostPort(node.host, node.port),
    change_class: classifyNodeRequest(req),
  });
  return new Promise((resolve, reject) => {
    const signal = req.signal;
    if (signal?.aborted) {
      reject(notSent(abortReason(signal)));
      return;
    }
    // The policy's own resolution, handed to the socket: what it checked is what is connected to, and
    // a refused address gets nothing at all, whether or not anything listens there.
    let dial: { lookup: LookupFunction };
    try {
      dial = (node.addresses ?? DENY_LIST_ONLY).dialOptions(node.host, node.port);
    } catch (err) {
      reject(notSent(err));
      return;
    }
    // Whether the request could have left: a reused keep-alive socket, or a new one once connected (TLS
    // established for HTTPS). Before that, nothing of it reached the node.
    let connected = false;
    const fail = (err: Error): void => {
      signal?.removeEventListener('abort', onAbort);
      reject(connected ? err : notSent(err));
    };
    const r = send(
      { host: node.host, port: node.port, path: req.path, method: req.method, headers, agent, ...dial },
      (res: IncomingMessage) => {
        const total = Number(res.headers['content-length']) || undefined;
        if (req.maxBytes !== undefined && total !== undefined && total > req.maxBytes) {
          res.destroy();
          fail(new ResponseTooLargeError(`answer of ${total} bytes exceeds ${req.maxBytes}`));
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
        res.on('end', () => {
          signal?.removeEventListener('abort', onAbort);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) });
        });
        res.on('error', fail);
      },
    );
    const onAbort = (): void => {
      r.destroy(abortReason(signal as AbortSignal));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    r.on('socket', (socket) => {
      const reached = (): void => {
        connected = true;
        if (socket.remoteAddress) ticket.connected(hostPort(socket.remoteAddress, socket.remotePort ?? 0));
      };
      if (r.reusedSocket) reached();
      else socket.once(agent === false ? 'connect' : 'secureConnect', reached);
    });
    r.setTimeout(req.timeoutMs, () => {
      const err = new Error(`no answer from ${node.host}:${node.port} within ${req.timeoutMs} ms`);
      (err as Error & { code: string }).code = 'ETIMEDOUT';
      r.destroy(err);
    });
    r.on('error', fail);
    if (req.body !== undefined) r.write(req.body);
    r.end();
  });
}

/** `host:port`, the host bracketed when it is an IPv6 address. */
export function hostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

function notSent<E>(err: E): E {
  if (typeof err === 'object' && err !== null) NOT_SENT.add(err);
  return err;
}

function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('aborted');
}

export interface RetryOptions<T> {
  /**
   * Safe to send again after it may have reached the node: reads. Default true. A write (an AXL add,
   * update, remove or executeSQLUpdate, a CUPI POST, PUT or DELETE) is false: it is retried only when it
   * failed before leaving (connection refused, no TLS session), never after, so it cannot run twice.
   */
  idempotent?: boolean;
  /** The caller's cancellation (the MCP request's signal): aborts the exchange under way and any wait. */
  signal?: AbortSignal;
  /**
   * Recognises an answer that means "busy, come back later" (HTTP 503 or 429): returns the wait the
   * node asked for in ms (Retry-After), null for the policy's own, undefined for a real answer. Busy
   * answers are retried within the budget; the last one is returned for the caller to name.
   */
  busy?: (value: T) => number | null | undefined;
  /** Waits after busy answers when the node names none (default: the policy's backoff). */
  busyBackoffMs?: readonly number[];
}

/** Why a retried operation stopped early: its time budget, or the caller. */
class Stopped extends Error {
  constructor(readonly why: 'budget' | 'cancelled') {
    super(why === 'budget' ? 'time budget spent' : 'cancelled');
  }
}

/**
 * Runs `attempt`, retrying transient network errors (and busy answers, when `busy` is given) with the
 * policy's backoff, within its time budget and the caller's signal, then gives up with a
 * ConnectivityError naming the node and what happened. TLS failures are not transient: a wrong
 * certificate does not get better by waiting. `attempt` receives the signal its exchange must honour.
 */
export async function withNetworkRetry<T>(
  node: NodeEndpoint,
  policy: RetryPolicy,
  attempt: (signal: AbortSignal) => Promise<T>,
  options: RetryOptions<T> = {},
): Promise<T> {
  const where = `${node.host}:${node.port}`;
  const started = Date.now();
  const deadline = policy.budgetMs === undefined ? Infinity : started + policy.budgetMs;
  const stop = new AbortController();
  const timer =
    policy.budgetMs === undefined
      ? undefined
      : setTimeout(() => stop.abort(new Stopped('budget')), policy.budgetMs);
  const cancel = (): void => stop.abort(new Stopped('cancelled'));
  if (options.signal?.aborted) cancel();
  else options.signal?.addEventListener('abort', cancel, { once: true });
  const stopped = (i: number, cause?: unknown): ConnectivityError =>
    (stop.signal.reason as Stopped).why === 'budget'
      ? new ConnectivityError(
          `${where} did not answer within the time budget of ${seconds(policy.budgetMs ?? 0)} (${i + 1} attempt${i === 0 ? '' : 's'}); the request was abandoned`,
          { cause },
        )
      : new ConnectivityError(
          `the request to ${where} was cancelled by the caller; the connection was closed`,
          {
            cause,
          },
        );
  try {
    let netRetries = 0;
    let busyRetries = 0;
    for (let i = 0; ; i++) {
      if (stop.signal.aborted) throw stopped(i);
      let value: T;
      try {
        // The budget holds even for an attempt that does not watch the signal itself (every exchange
        // here does, and closes its socket).
        value = await untilAborted(attempt(stop.signal), stop.signal, () => stop.signal.reason as Error);
      } catch (err) {
        if (stop.signal.aborted) throw stopped(i, err);
        if (isKernelError(err)) throw err;
        if (isProtocolMismatch(err)) {
          throw new ConnectivityError(
            `no TLS handshake with ${where} (${(err as Error).message}): the port does not seem to serve HTTPS`,
            { cause: err },
          );
        }
        if (isTlsError(err)) {
          // Names the pinned and the presented certificate (fingerprints), so a changed one is plain.
          throw await tlsRefusal(node, (err as Error).message, err);
        }
        const code = (err as { code?: unknown }).code;
        if (typeof code !== 'string') throw err;
        const what = `${code}: ${(err as Error).message}`;
        if (!isTransient(err)) {
          const failed = code.startsWith('HPE_')
            ? 'answered something that is not HTTP'
            : 'cannot be reached';
          throw new ConnectivityError(`${where} ${failed} (${what})`, { cause: err });
        }
        if (options.idempotent === false && requestMayHaveReached(err)) {
          throw new ConnectivityError(
            `the connection to ${where} failed after the request was sent (${what}); it changes the node, so it was not repeated: check whether it took effect before trying again`,
            { cause: err },
          );
        }
        const delay = policy.backoffMs[netRetries++];
        if (delay === undefined || !(await pause(jittered(delay), deadline, stop.signal))) {
          if (stop.signal.aborted) throw stopped(i, err);
          throw new ConnectivityError(
            `${where} is unreachable after ${i + 1} attempt${i === 0 ? '' : 's'} (${what})`,
            { cause: err },
          );
        }
        continue;
      }
      const hint = options.busy?.(value);
      if (hint === undefined) return value;
      const schedule = options.busyBackoffMs ?? policy.backoffMs;
      const step = schedule[busyRetries++];
      // Out of retries, or the node asks for a wait past the budget: its answer says so to the caller.
      if (step === undefined) return value;
      if (!(await pause(hint ?? jittered(step), deadline, stop.signal))) {
        if (options.signal?.aborted) throw stopped(i);
        return value;
      }
    }
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', cancel);
  }
}

/** Waits `ms` unless that would pass `deadline` (false at once) or `signal` aborts first (false). */
async function pause(ms: number, deadline: number, signal: AbortSignal): Promise<boolean> {
  if (Date.now() + ms >= deadline || signal.aborted) return false;
  return new Promise((resolve) => {
    const done = (ok: boolean): void => {
      clearTimeout(t);
      signal.removeEventListener('abort', onAbort);
      resolve(ok);
    };
    const onAbort = (): void => done(false);
    const t = setTimeout(() => done(true), ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

/**
 * Retry-After of a busy answer in ms (delta-seconds or an HTTP date), or null when it gives none:
 * what `RetryOptions.busy` returns for HTTP 503 and 429.
 */
export function retryAfterMs(answer: HttpAnswer): number | null {
  const raw = answer.headers['retry-after'];
  const text = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  if (!text) return null;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

/** HTTP 503 and 429 are a busy node: retried after its Retry-After (or the backoff) within the budget. */
export function busyAnswer(answer: HttpAnswer): number | null | undefined {
  return answer.status === 503 || answer.status === 429 ? retryAfterMs(answer) : undefined;
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
