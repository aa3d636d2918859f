// CUPI (Unity Connection's REST API under /vmrest/) for every caller: one session per caller, host,
// login and password, reused across tool calls so the node checks the credential once (JSESSIONID).
// Every path goes through the path policy again here, so nothing unsafe is sent whoever calls.
import { createHmac, randomBytes } from 'node:crypto';
import type { ClientVault, NodeAddressGuard } from '../../../kernel/sdk/index.ts';
import {
  BadRequestError,
  ConnectivityError,
  CUPIError,
  isKernelError,
  PayloadTooLargeError,
} from '../../../kernel/sdk/index.ts';
import type {
  HttpAnswer,
  HttpRequest,
  NodeEndpoint,
  RetryOptions,
  RetryPolicy,
} from '../../_shared/axl/transport.ts';
import {
  busyAnswer,
  DEFAULT_RETRY,
  ResponseTooLargeError,
  retryAfterMs,
} from '../../_shared/axl/transport.ts';
import { loadEndpoint, PORTS } from '../../_shared/node/endpoint.ts';
import { assertCarriable } from '../../_shared/node/wire-text.ts';
import type { JsonValue } from './answers.ts';
import { cupiError, isJsonObject, normaliseList, parseBody } from './answers.ts';
import type { QueryValue } from './path-policy.ts';
import { canonicalCupiPath, encodeQuery, resourcePath } from './path-policy.ts';
import { CupiSession } from './session.ts';

export type CupiMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface CupiClientsOptions {
  /** A session unused this long is closed (Tomcat's own idle limit is 30 min). Default 10 min. */
  idleMs?: number;
  /** Most sessions kept; the least recently used is closed beyond. Default 64. */
  maxSessions?: number;
  /**
   * Backoff and time budget. A GET is retried after network errors and busy answers (HTTP 503, 429,
   * after their Retry-After); POST, PUT and DELETE only when they failed before leaving (connection
   * refused), never after they may have reached the node.
   */
  retry?: RetryPolicy;
  /** Longest silence of the node within one attempt. Default 30 s. */
  timeoutMs?: number;
  /** Largest answer accepted. Default 16 MiB. */
  maxAnswerBytes?: number;
  /** Largest JSON body sent. Default 1 MiB. */
  maxBodyBytes?: number;
  /** Where nodes may be (the kernel's node address policy); unset: the always-refused list only. */
  addresses?: NodeAddressGuard;
}

export interface CupiRequest {
  method: CupiMethod;
  /** A path under /vmrest/; canonicalised (and refused when unsafe) before anything is sent. */
  path: string;
  query?: Record<string, QueryValue | undefined>;
  /** Sent as JSON (POST and PUT only). */
  body?: JsonValue;
}

export interface CupiResponse {
  status: number;
  /** The canonical path that was requested. */
  path: string;
  /** Location of a created object (201), as the node gave it. */
  location?: string;
  /** JSON when the body parses as JSON, its text otherwise; absent when empty (204). */
  body?: JsonValue | string;
}

export interface CupiListRequest {
  /** `users`, `handlers/callhandlers` or `/vmrest/users`. */
  resource: string;
  /** CUPI search, e.g. `(alias startswith ab)`. */
  query?: string;
  /** CUPI sort, e.g. `(alias asc)`. */
  sort?: string;
  rowsPerPage: number;
  pageNumber: number;
}

export interface CupiListPage {
  /** The canonical resource path listed. */
  resource: string;
  total: number;
  page: number;
  rowsPerPage: number;
  /** The object element (`User`), when the node sent any object. */
  objectName?: string;
  items: JsonValue[];
}

const MiB = 1024 * 1024;

export class CupiClients {
  readonly #sessions = new Map<string, CupiSession>();
  readonly #keySecret = randomBytes(32);
  readonly #o: CupiClientsOptions;
  readonly #timer: NodeJS.Timeout;

  constructor(o: CupiClientsOptions = {}) {
    this.#o = o;
    // Swept at half the idle limit (at most every 30 s), so a session outlives it by half at most.
    const sweepMs = Math.max(10, Math.min(30_000, Math.floor(this.#idleMs / 2)));
    this.#timer = setInterval(() => this.#sweep(), sweepMs);
    this.#timer.unref();
  }

  /** Sessions currently held (for tests and status). */
  get size(): number {
    return this.#sessions.size;
  }

  /**
   * One CUPI call with the caller's stored credential for `host`. Resolves for 2xx only; any other
   * status is CUPIError with the node's status and message. The path is re-checked here.
   */
  async request(
    vault: ClientVault,
    host: string,
    req: CupiRequest,
    signal?: AbortSignal,
  ): Promise<CupiResponse> {
    const path = canonicalCupiPath(req.path);
    const target = path + encodeQuery(req.query ?? {});
    let body: string | undefined;
    if (req.body !== undefined) {
      if (req.method !== 'POST' && req.method !== 'PUT')
        throw new BadRequestError(`a ${req.method} request takes no body`);
      assertCarriable(req.body, 'body', 'text');
      body = JSON.stringify(req.body);
      const max = this.#o.maxBodyBytes ?? MiB;
      if (Buffer.byteLength(body) > max) throw new PayloadTooLargeError(`the JSON body is over ${max} bytes`);
    }
    const session = await this.#session(vault, host);
    const http: HttpRequest = {
      service: 'cupi',
      // The path without the query: search values are the caller's data, not what was done.
      operation: `${req.method} ${path}`,
      method: req.method,
      path: target,
      timeoutMs: this.#o.timeoutMs ?? 30_000,
      maxBytes: this.#o.maxAnswerBytes ?? 16 * MiB,
      headers: {
        accept: 'application/json',
        ...(body !== undefined ? { 'content-type': 'application/json; charset=utf-8' } : {}),
      },
      ...(body !== undefined ? { body } : {}),
    };
    // Only a read is sent again once it may have reached the node: a POST may have created its object,
    // and a PUT or DELETE repeated after it took effect would report the wrong outcome.
    const safe = req.method === 'GET';
    const retry = this.#o.retry ?? DEFAULT_RETRY;
    let attempts = 0;
    const options: RetryOptions<HttpAnswer> = {
      idempotent: safe,
      ...(safe
        ? {
            busy: (a: HttpAnswer) => {
              attempts++;
              return busyAnswer(a);
            },
          }
        : {}),
      ...(signal ? { signal } : {}),
    };
    const send = () => transportErrors(session.endpoint, () => session.send(http, retry, options));
    const first = await send();
    // A 401 on a cookie: the session died on the node (restart, idle limit) and the session dropped the
    // cookie; once more, logging in. A 401 without one is the credential itself: no second try, which
    // would only count another failed login against the account.
    const { answer } = first.answer.status === 401 && first.withCookie ? await send() : first;
    if (answer.status === 503 || answer.status === 429) {
      const after = retryAfterMs(answer);
      throw new CUPIError(
        `CUPI ${req.method} ${path} on ${host} answered HTTP ${answer.status}: the node is busy${safe ? ` (${attempts} attempts)` : '; a write is not repeated'}; ${after === null ? 'retry later' : `it asks to retry in ${Math.ceil(after / 1000)} s`}`,
      );
    }
    if (answer.status < 200 || answer.status > 299)
      throw cupiError(host, req.method, path, answer.status, answer.body);
    const location = answer.headers.location;
    const parsed = parseBody(answer.body);
    return {
      status: answer.status,
      path,
      ...(typeof location === 'string' && location !== '' ? { location } : {}),
      ...(parsed !== undefined ? { body: parsed } : {}),
    };
  }

  /** GET /vmrest/version/product: `{ name, version }`. */
  async version(
    vault: ClientVault,
    host: string,
    signal?: AbortSignal,
  ): Promise<{ name: string; version: string }> {
    const r = await this.request(vault, host, { method: 'GET', path: '/vmrest/version/product' }, signal);
    const b = r.body;
    if (!isJsonObject(b) || typeof b.version !== 'string' || b.version === '')
      throw new CUPIError(`CUPI on ${host} answered /vmrest/version/product without a version`);
    return { name: typeof b.name === 'string' ? b.name : 'Cisco Unity Connection', version: b.version };
  }

  /** What cuc_check_connectivity shows for CUPI: the whole path (credential, TLS, login, a real read). */
  async probe(vault: ClientVault, host: string, signal?: AbortSignal): Promise<{ version: string }> {
    return { version: (await this.version(vault, host, signal)).version };
  }

  /** One page of a list resource, the single-object and zero-result forms turned into an array. */
  async list(
    vault: ClientVault,
    host: string,
    req: CupiListRequest,
    signal?: AbortSignal,
  ): Promise<CupiListPage> {
    const path = resourcePath(req.resource);
    const r = await this.request(
      vault,
      host,
      {
        method: 'GET',
        path,
        query: {
          query: req.query,
          sort: req.sort,
          rowsPerPage: req.rowsPerPage,
          pageNumber: req.pageNumber,
        },
      },
      signal,
    );
    const list = normaliseList(r.body);
    if (!list) {
      throw new CUPIError(
        `CUPI ${path} on ${host} did not answer with a list (no @total); read single objects with cuc_cupi_call`,
      );
    }
    return {
      resource: path,
      total: list.total,
      page: req.pageNumber,
      rowsPerPage: req.rowsPerPage,
      ...(list.objectName ? { objectName: list.objectName } : {}),
      items: list.items,
    };
  }

  close(): void {
    clearInterval(this.#timer);
    for (const s of this.#sessions.values()) s.close();
    this.#sessions.clear();
  }

  async #session(vault: ClientVault, host: string): Promise<CupiSession> {
    const endpoint = await loadEndpoint(vault, 'cuc', 'cupi', host, PORTS.https, this.#o.addresses);
    const key = this.#key(vault.client, host, endpoint);
    let session = this.#sessions.get(key);
    if (!session) {
      session = new CupiSession(endpoint);
      this.#sessions.set(key, session);
      this.#evict(key);
    }
    session.lastUsed = Date.now();
    return session;
  }

  /**
   * Keyed by caller, credential host, where it connects, the login and a keyed hash of the password
   * and pinned TLS material: a changed credential opens a new session instead of riding the old one,
   * and the key in memory reveals no password.
   */
  #key(client: string, host: string, e: NodeEndpoint): string {
    const secret = createHmac('sha256', this.#keySecret)
      .update(`${e.password}\0${e.caCertPem ?? ''}\0${e.certPem ?? ''}`)
      .digest('base64url');
    return JSON.stringify([client, host.toLowerCase(), `${e.host}:${e.port}`, e.username, secret]);
  }

  get #idleMs(): number {
    return this.#o.idleMs ?? 10 * 60_000;
  }

  #sweep(): void {
    const now = Date.now();
    for (const [k, s] of this.#sessions) {
      if (!s.busy && now - s.lastUsed > this.#idleMs) {
        s.close();
        this.#sessions.delete(k);
      }
    }
  }

  /** Closes the least recently used idle sessions beyond the limit, never `keep` (the one just opened). */
  #evict(keep: string): void {
    const max = this.#o.maxSessions ?? 64;
    while (this.#sessions.size > max) {
      let oldest: [string, CupiSession] | undefined;
      for (const kv of this.#sessions) {
        if (kv[0] !== keep && !kv[1].busy && (!oldest || kv[1].lastUsed < oldest[1].lastUsed)) oldest = kv;
      }
      if (!oldest) return;
      oldest[1].close();
      this.#sessions.delete(oldest[0]);
    }
  }
}

/**
 * Coded errors for what the transport leaves raw: an oversized answer, and network failures it does
 * not count as transient (unknown host name, a node that does not speak HTTP).
 */
async function transportErrors<T>(node: NodeEndpoint, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (isKernelError(err)) throw err;
    if (err instanceof ResponseTooLargeError)
      throw new PayloadTooLargeError(`the CUPI answer of ${node.host} is too large: ${err.message}`, {
        cause: err,
      });
    const code = (err as { code?: unknown }).code;
    if (typeof code === 'string')
      throw new ConnectivityError(
        `${node.host}:${node.port} cannot be reached (${code}: ${(err as Error).message})`,
        {
          cause: err,
        },
      );
    throw err;
  }
}
