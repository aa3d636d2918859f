// The AXL client shared by the CUCM and IM&P plugins: one schema-driven call path with the node's
// quirks handled (PLATFORM-NOTES.md, "CUCM AXL").
import type { Agent } from 'node:https';
import { XMLParser } from 'fast-xml-parser';
import { AXLError, BadRequestError } from '../../../kernel/sdk/index.ts';
import type { AxlSchemaCache } from './schema-cache.ts';
import { compareVersions } from './schema-cache.ts';
import type { AxlSchema, Json } from './schema.ts';
import type { HttpAnswer, NodeEndpoint, RetryPolicy } from './transport.ts';
import { DEFAULT_RETRY, httpsExchange, jittered, sleep, tlsAgent, withNetworkRetry } from './transport.ts';

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
}

const faultParser = new XMLParser({ removeNSPrefix: true, parseTagValue: false, ignoreAttributes: true });

const MEMORY_FAULT = /Maximum AXL Memory Allocation Consumed/i;

export class AxlClient {
  private readonly agent: Agent;
  private readonly node: NodeEndpoint;

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

  /** Calls any operation of the schema: JSON in, JSON out (the answer's body element). */
  async call(operation: string, args: Record<string, Json> = {}): Promise<Json> {
    const envelope = this.opts.schema.buildEnvelope(operation, args);
    const throttle = this.opts.throttleBackoffMs ?? [1000, 2000, 4000];
    for (let i = 0; ; i++) {
      const answer = await this.post(operation, envelope);
      const retryable =
        answer.status === 503 || (answer.status === 500 && MEMORY_FAULT.test(answer.body.toString()));
      if (retryable) {
        const delay = retryAfterMs(answer) ?? throttle[i];
        if (delay !== undefined) {
          await sleep(jittered(delay));
          continue;
        }
        throw new AXLError(
          `${this.opts.host} is throttling AXL (HTTP ${answer.status}) after ${i + 1} attempts; retry later`,
        );
      }
      return this.answer(operation, answer);
    }
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

  private post(operation: string, envelope: string): Promise<HttpAnswer> {
    return withNetworkRetry(this.node, this.opts.retry ?? DEFAULT_RETRY, () =>
      httpsExchange(this.node, this.agent, {
        method: 'POST',
        path: '/axl/',
        timeoutMs: this.opts.timeoutMs ?? 60_000,
        headers: {
          'content-type': 'text/xml; charset=utf-8',
          soapaction: `"CUCM:DB ver=${this.opts.version} ${operation}"`,
        },
        body: envelope,
      }),
    );
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

function retryAfterMs(answer: HttpAnswer): number | undefined {
  const s = Number(answer.headers['retry-after']);
  // Honour the node's own hint, bounded so a confused node cannot park a tool call for long.
  return Number.isFinite(s) && s > 0 ? Math.min(s, 30) * 1000 : undefined;
}

function htmlText(html: string): string {
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A SOAP 1.1 fault with an optional axlError detail, or undefined for any other body. */
export function parseFault(xml: string): { code: number | undefined; message: string } | undefined {
  if (!/<(\w+:)?Fault[\s>]/.test(xml)) return undefined;
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

export interface NegotiatedVersion {
  version: string;
  /** What the node says it serves (empty when it accepted the first try). */
  supported: string[];
}

/**
 * Finds the AXL version to talk to a node: tries the newest cached schema with a schema-free
 * getCCMVersion; on HTTP 599 reads the node's list and picks the newest version it serves that the
 * cache has, or says which version to download.
 */
export async function negotiateVersion(
  node: NodeEndpoint & { timeoutMs?: number; retry?: RetryPolicy },
  cache: AxlSchemaCache,
): Promise<NegotiatedVersion> {
  const cached = cache.versions();
  const first = cached.at(-1) ?? '15.0';
  const agent = tlsAgent(node);
  try {
    const probe = (v: string): Promise<HttpAnswer> =>
      withNetworkRetry(node, node.retry ?? DEFAULT_RETRY, () =>
        httpsExchange(node, agent, {
          method: 'POST',
          path: '/axl/',
          timeoutMs: node.timeoutMs ?? 30_000,
          headers: {
            'content-type': 'text/xml; charset=utf-8',
            soapaction: `"CUCM:DB ver=${v} getCCMVersion"`,
          },
          body: `<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:ns="http://www.cisco.com/AXL/API/${v}"><soapenv:Body><ns:getCCMVersion/></soapenv:Body></soapenv:Envelope>`,
        }),
      );
    const answer = await probe(first);
    if (answer.status === 401 || answer.status === 403) {
      throw new AXLError(`authentication to AXL on ${node.host} failed (HTTP ${answer.status})`);
    }
    if (answer.status !== 599) {
      if (!cached.includes(first)) {
        throw new BadRequestError(
          `${node.host} serves AXL ${first} but no schema is cached; run ${cache.downloadTool}`,
        );
      }
      return { version: first, supported: [] };
    }
    const supported = parseSupportedVersions(answer.body.toString('utf8'));
    const usable = supported.filter((v) => cached.includes(v)).sort(compareVersions);
    const best = usable.at(-1);
    if (!best) {
      throw new BadRequestError(
        `${node.host} serves AXL ${supported.join(', ') || '(unknown)'}, none of which is cached (cached: ${cached.join(', ') || 'none'}); run ${cache.downloadTool}`,
      );
    }
    return { version: best, supported };
  } finally {
    agent.destroy();
  }
}

/** `Incorrect axl version. Supported axl versions are 12.0, 12.5, 14.0 and 15.0` → the versions. */
export function parseSupportedVersions(body: string): string[] {
  const m = /Supported axl versions are ([^<]*)/i.exec(body);
  if (!m?.[1]) return [];
  return [...m[1].matchAll(/\d+\.(\d+|x)/g)].map((x) => x[0]).sort(compareVersions);
}
