// The AXL client shared by the CUCM and IM&P plugins: one schema-driven call path with the node's
// quirks handled (PLATFORM-NOTES.md, "CUCM AXL").
import type { Agent } from 'node:https';
import { XMLParser } from 'fast-xml-parser';
import { AXLError, BadRequestError } from '../../../kernel/sdk/index.ts';
import type { AxlSchemaCache } from './schema-cache.ts';
import type { AxlSchema, Json } from './schema.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LimitStateStore } from '../node/window-limiter.ts';
import type { HttpAnswer, NodeEndpoint, RetryPolicy } from './transport.ts';
import { DEFAULT_RETRY, httpsExchange, retryAfterMs, tlsAgent } from './transport.ts';
import { retriedExchange } from '../node/retried-exchange.ts';
import { hasDtd, sizeLabel } from './untrusted-xml.ts';
import { parseSupportedVersions, versionsToTry } from './version-list.ts';
import { assertCarriable } from '../node/wire-text.ts';

/** An AXL fault, with the node's own code and message kept apart for callers that branch on them. */
export class AxlFaultError extends AXLError {
  constructor(
    readonly axlCode: number | undefined,
    readonly axlMessage: string,
    operation: string,
  ) {
    super(`${operation} failed: ${axlCode ?? 'fault'} ${axlMessage}`);
  }
}

export interface AxlClientOptions extends NodeEndpoint {
  version: string;
  schema: AxlSchema;
  timeoutMs?: number;
  retry?: RetryPolicy;
  /** Retries of a throttled node (HTTP 503, memory fault), longer than network ones: the node asked us to wait. */
  throttleBackoffMs?: readonly number[];
  /** Largest answer read; a longer one is abandoned mid-stream (AXLError). Default AXL_MAX_ANSWER_BYTES. */
  maxAnswerBytes?: number;
  /**
   * Where a node's "come back later" (HTTP 503 or 429, memory fault) is kept as a blocked-until time
   * (Unix ms) per node, so every instance sharing the store waits it out too, not only the one that
   * was told. Unset: each client only follows the answers it got itself.
   */
  throttle?: LimitStateStore;
}

/** Longest wait for another instance's node block before a call gives up and says when to retry. */
const MAX_BLOCK_WAIT_MS = 10_000;

/**
 * CUCM refuses to build an AXL answer over 8 MB ("Query request too large"); four times that leaves room
 * for any real answer and bounds what a hostile or broken node can make this process hold.
 */
export const AXL_MAX_ANSWER_BYTES = 32 * 1024 * 1024;

const faultParser = new XMLParser({ removeNSPrefix: true, parseTagValue: false, ignoreAttributes: true });

const MEMORY_FAULT = /Maximum AXL Memory Allocation Consumed/i;

/**
 * Operations that only read: safe to send again after a failure that may have followed their arrival.
 * Anything else (add, update, remove, apply, reset, restart, do, wipe, lock, executeSQLUpdate...) is a write.
 */
export function isSafeToRepeat(operation: string): boolean {
  return /^(get|list)[A-Z]/.test(operation) || operation === 'executeSQLQuery';
}

export class AxlClient {
  private readonly agent: Agent;
  private readonly node: NodeEndpoint;
  /** Set on the per-call views `withSignal` makes. */
  private readonly signal?: AbortSignal;

  constructor(private readonly opts: AxlClientOptions) {
    if (opts.schema.version !== opts.version) {
      throw new BadRequestError(`schema ${opts.schema.version} does not match AXL version ${opts.version}`);
    }
    this.node = opts;
    this.agent = tlsAgent(opts);
  }

  get version(): string {
    return this.opts.version;
  }

  get schema(): AxlSchema {
    return this.opts.schema;
  }

  /**
   * This client for one tool call: its requests end when `signal` aborts (the MCP request was cancelled
   * or the server is stopping), their socket closed. It shares the keep-alive agent; closing it closes both.
   */
  withSignal(signal: AbortSignal | undefined): AxlClient {
    if (!signal) return this;
    const view = Object.create(this) as AxlClient;
    Object.defineProperty(view, 'signal', { value: signal });
    return view;
  }

  /**
   * Calls any operation of the schema: JSON in, JSON out (the answer's body element). Reads (get*,
   * list*, executeSQLQuery) are retried after a network failure; writes only when the failure came before
   * the request left, so a write never runs twice. A throttled node (HTTP 503 or 429, memory fault), which
   * refused the request unread, is asked again after its Retry-After or the throttle backoff.
   */
  async call(operation: string, args: Record<string, Json> = {}): Promise<Json> {
    assertCarriable(operation, 'operation', 'xml');
    assertCarriable(args, 'args', 'xml');
    const envelope = this.opts.schema.buildEnvelope(operation, args);
    let attempts = 0;
    const answer = await this.post(operation, envelope, (a) => {
      attempts++;
      return throttled(a) ? retryAfterMs(a) : undefined;
    });
    if (throttled(answer)) {
      const after = retryAfterMs(answer);
      const why =
        answer.status === 500
          ? 'is out of AXL memory (Maximum AXL Memory Allocation Consumed)'
          : `is throttling AXL (HTTP ${answer.status})`;
      throw new AXLError(
        `${this.opts.host} ${why} after ${attempts} attempt${attempts === 1 ? '' : 's'}; ${after === null ? 'retry later' : `it asks to retry in ${Math.ceil(after / 1000)} s`}`,
      );
    }
    return this.answer(operation, answer);
  }

  /** The node's full version, e.g. `15.0.1.11900(40)`. */
  async getVersion(): Promise<string> {
    const r = (await this.call('getCCMVersion', {})) as {
      return?: { componentVersion?: { version?: string } };
    };
    const v = r?.return?.componentVersion?.version;
    if (typeof v !== 'string') throw new AXLError('getCCMVersion answered without a version');
    return v;
  }

  close(): void {
    this.agent.destroy();
  }

  private post(
    operation: string,
    envelope: string,
    busy: (a: HttpAnswer) => number | null | undefined,
  ): Promise<HttpAnswer> {
    const maxBytes = this.opts.maxAnswerBytes ?? AXL_MAX_ANSWER_BYTES;
    return retriedExchange(
      this.node,
      this.opts.retry ?? DEFAULT_RETRY,
      async (signal) => {
        await this.waitForBlock(signal);
        return httpsExchange(this.node, this.agent, {
          service: 'axl',
          operation,
          method: 'POST',
          path: '/axl/',
          timeoutMs: this.opts.timeoutMs ?? 60_000,
          maxBytes,
          headers: {
            'content-type': 'text/xml; charset=utf-8',
            soapaction: `"CUCM:DB ver=${this.opts.version} ${operation}"`,
          },
          body: envelope,
          signal,
        });
      },
      {
        idempotent: isSafeToRepeat(operation),
        busy: (a) => {
          const wait = busy(a);
          if (throttled(a)) this.noteBlock(wait ?? (this.opts.throttleBackoffMs ?? [1000])[0] ?? 1000);
          return wait;
        },
        busyBackoffMs: this.opts.throttleBackoffMs ?? [1000, 2000, 4000],
        signal: this.signal,
        tooLarge: (cause) => tooLarge(this.node, maxBytes, operation, cause),
      },
    );
  }

  // TS-private, not #private: the per-call views withSignal makes (Object.create) must reach them.
  private blockKey(): string {
    return `${this.node.host.toLowerCase()}:${this.node.port}`;
  }

  /**
   * Tells the other instances the node asked to wait `ms`. Not awaited (the retry waits on its own); a
   * store that cannot be reached shows at the next attempt's read, which fails closed.
   */
  private noteBlock(ms: number): void {
    const throttle = this.opts.throttle;
    if (!throttle || ms <= 0) return;
    void throttle.set(this.blockKey(), String(Date.now() + ms), ms).catch(() => undefined);
  }

  /** Waits out a block another instance (or an earlier call) recorded for the node, when it is short. */
  private async waitForBlock(signal: AbortSignal | undefined): Promise<void> {
    const throttle = this.opts.throttle;
    if (!throttle) return;
    const until = Number((await throttle.get(this.blockKey())) ?? 0);
    const wait = until - Date.now();
    if (!(wait > 0)) return;
    if (wait > MAX_BLOCK_WAIT_MS)
      throw new AXLError(
        `${this.opts.host} is throttling AXL (it asked this server to wait); it asks to retry in ${Math.ceil(wait / 1000)} s`,
      );
    await sleep(wait, undefined, signal ? { signal } : {});
  }

  private answer(operation: string, answer: HttpAnswer): Json {
    const text = answer.body.toString('utf8');
    if (answer.status === 401 || answer.status === 403) {
      throw new AXLError(
        `authentication to AXL on ${this.opts.host} failed (HTTP ${answer.status}): check the credential and that the user has the Standard AXL API Access role`,
      );
    }
    if (answer.status === 599) {
      throw new AXLError(`${this.opts.host} does not serve AXL ${this.opts.version}: ${htmlText(text)}`);
    }
    if ((answer.status === 200 || FAULT.test(text)) && hasDtd(text)) {
      throw new AXLError(
        `${operation}: the answer from ${this.opts.host} carries a DOCTYPE, which SOAP forbids; refused unread (its entities could read local files, reach other hosts or exhaust memory)`,
      );
    }
    const fault = parseFault(text);
    if (fault) throw new AxlFaultError(fault.code, fault.message, operation);
    if (answer.status !== 200) {
      throw new AXLError(
        `${operation}: HTTP ${answer.status} from ${this.opts.host}: ${htmlText(text).slice(0, 300)}`,
      );
    }
    return this.opts.schema.parseAnswer(operation, text);
  }
}

/** The node refused the request unread and asks to come back: HTTP 503 or 429, or its memory fault. */
function throttled(a: HttpAnswer): boolean {
  return a.status === 503 || a.status === 429 || (a.status === 500 && MEMORY_FAULT.test(a.body.toString()));
}

function htmlText(html: string): string {
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

const FAULT = /<(\w+:)?Fault[\s>]/;

/** A node's answer over `maxBytes`, cut mid-stream by the transport, as a coded error. */
function tooLarge(node: NodeEndpoint, maxBytes: number, operation: string, cause: Error): AXLError {
  return new AXLError(
    `${operation}: the AXL answer from ${node.host} is over ${sizeLabel(maxBytes)}; it was abandoned unread (ask for fewer rows or returned tags)`,
    { cause },
  );
}

/** A SOAP 1.1 fault with an optional axlError detail, or undefined for any other body. */
export function parseFault(xml: string): { code: number | undefined; message: string } | undefined {
  if (!FAULT.test(xml)) return undefined;
  if (hasDtd(xml)) return { code: undefined, message: 'SOAP fault with a DOCTYPE (refused unread)' };
  try {
    const doc = faultParser.parse(xml) as { Envelope?: { Body?: { Fault?: Record<string, unknown> } } };
    const f = doc.Envelope?.Body?.Fault;
    if (!f) return undefined;
    const detail = (f.detail ?? {}) as { axlError?: { axlcode?: string; axlmessage?: string } };
    const code = Number(detail.axlError?.axlcode);
    const message = String(detail.axlError?.axlmessage ?? f.faultstring ?? 'SOAP fault');
    return {
      code: Number.isFinite(code) && detail.axlError?.axlcode !== undefined ? code : undefined,
      message,
    };
  } catch {
    return { code: undefined, message: 'unparsable SOAP fault' };
  }
}

/** A getCCMVersion answer or an HTTP 599 page is a few kilobytes. */
const PROBE_MAX_BYTES = 1024 * 1024;

export interface NegotiatedVersion {
  version: string;
  /** What the node says it serves (empty when it accepted the first try). */
  supported: string[];
}

export { parseSupportedVersions } from './version-list.ts';

/** A node that keeps answering 599 is not asked forever. */
const MAX_VERSION_TRIES = 4;

/**
 * Finds the AXL version to talk to a node: tries the newest cached schema with a schema-free
 * getCCMVersion; on HTTP 599 reads the node's list (any wording, `12.x` included) and retries with the
 * newest cached version it covers, not above the one tried, until one is accepted; or says which
 * version to download.
 */
export async function negotiateVersion(
  node: NodeEndpoint & { timeoutMs?: number; retry?: RetryPolicy; signal?: AbortSignal },
  cache: AxlSchemaCache,
): Promise<NegotiatedVersion> {
  const cached = cache.versions();
  const first = cached.at(-1) ?? '15.0';
  const agent = tlsAgent(node);
  try {
    const probe = (v: string): Promise<HttpAnswer> =>
      retriedExchange(
        node,
        node.retry ?? DEFAULT_RETRY,
        (signal) =>
          httpsExchange(node, agent, {
            service: 'axl',
            operation: 'getCCMVersion',
            method: 'POST',
            path: '/axl/',
            timeoutMs: node.timeoutMs ?? 30_000,
            maxBytes: PROBE_MAX_BYTES,
            headers: {
              'content-type': 'text/xml; charset=utf-8',
              soapaction: `"CUCM:DB ver=${v} getCCMVersion"`,
            },
            body: `<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:ns="http://www.cisco.com/AXL/API/${v}"><soapenv:Body><ns:getCCMVersion/></soapenv:Body></soapenv:Envelope>`,
            signal,
          }),
        {
          signal: node.signal,
          tooLarge: (cause) => tooLarge(node, PROBE_MAX_BYTES, 'getCCMVersion', cause),
        },
      );
    let tried = first;
    let supported: string[] = [];
    const refused: string[] = [];
    for (let attempt = 1; ; attempt++) {
      const answer = await probe(tried);
      if (answer.status === 401 || answer.status === 403) {
        throw new AXLError(`authentication to AXL on ${node.host} failed (HTTP ${answer.status})`);
      }
      if (throttled(answer)) {
        const after = retryAfterMs(answer);
        throw new AXLError(
          `${node.host} is too busy to answer AXL (HTTP ${answer.status}) after retries; ${after === null ? 'retry later' : `it asks to retry in ${Math.ceil(after / 1000)} s`}`,
        );
      }
      if (answer.status !== 599) {
        if (!cached.includes(tried)) {
          throw new BadRequestError(
            `${node.host} serves AXL ${tried} but no schema is cached; run ${cache.downloadTool}`,
          );
        }
        return { version: tried, supported };
      }
      refused.push(tried);
      const listed = parseSupportedVersions(answer.body.toString('utf8'));
      if (listed.length > 0) supported = listed;
      if (supported.length === 0) {
        throw new AXLError(
          `${node.host} refused AXL ${tried} (HTTP 599) without a list of versions this server could read: ${htmlText(answer.body.toString('utf8')).slice(0, 200)}`,
        );
      }
      const next = versionsToTry(supported, cached, first).find((v) => !refused.includes(v));
      if (!next) {
        throw new BadRequestError(
          `${node.host} serves AXL ${supported.join(', ')}, none of which is cached (cached: ${cached.join(', ') || 'none'}); run ${cache.downloadTool}`,
        );
      }
      if (attempt >= MAX_VERSION_TRIES) {
        throw new AXLError(
          `${node.host} refused AXL ${refused.join(', ')} (HTTP 599) though it lists ${supported.join(', ')}`,
        );
      }
      tried = next;
    }
  } finally {
    agent.destroy();
  }
}
