// Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document, as the MCP 2025-11-25
// authorization spec uses them): a client_id that is an https URL names a JSON document of client
// metadata the server fetches. The URL is someone else's choice, so the fetch is bounded in every way
// (deny list through the connection's own resolution, size, time, no redirects, per-address rate,
// fetches in flight) and the result is cached, bounded too.
import { redirectUriProblem, shownUri } from '../clients/redirect-uri.ts';
import { boundedHttpsGet, type BoundedGetOptions } from '../net/bounded-https-get.ts';
import { NodeAddressPolicy, type NodeResolver } from '../net/node-address-policy.ts';
import { MemorySlidingWindowStore, type SlidingWindowStore } from '../store/sliding-window.ts';
import { validateAppMetadata, type AppMetadata } from './app-metadata.ts';

/** An application known by its metadata document. */
export interface DocumentApp extends AppMetadata {
  client_id: string;
}

export type DocumentFailure =
  | 'invalid_url'
  | 'rate_limited'
  | 'busy'
  | 'denied_address'
  | 'unreachable'
  | 'tls'
  | 'timeout'
  | 'too_large'
  | 'redirect'
  | 'http_status'
  | 'not_json'
  | 'client_id_mismatch'
  | 'invalid_metadata';

export type DocumentResult =
  | { ok: true; app: DocumentApp; fetched: boolean }
  | { ok: false; reason: DocumentFailure; description: string; retryAfterSeconds?: number };

export interface DocumentSettings {
  maxBytes: number;
  timeoutMs: number;
  /** Longest a document is cached, whatever its Cache-Control says (0: never cached). */
  cacheSeconds: number;
  /** Fetches one address may cause per window (cache hits are free). */
  perIp: number;
  windowMs: number;
}

/** Documents kept in the cache at most; the one closest to expiry gives way. */
export const MAX_CACHED_DOCUMENTS = 256;
/** Fetches running at once, from every caller together. */
export const MAX_FETCHES_IN_FLIGHT = 8;
/** Cached this long when the document says nothing (Cache-Control), if the cap allows. */
const DEFAULT_CACHE_SECONDS = 300;

/** Whether a client_id names a metadata document rather than a configured or registered client. */
export function isMetadataDocumentId(clientId: string): boolean {
  return clientId.startsWith('https://');
}

/**
 * Why a client_id URL cannot name a metadata document, or null: https, a host, a path other than
 * `/`, no dot segments, no fragment or user information (the draft's section 3), within the bounds
 * every redirect URI is held to (length, ASCII, percent-encoding, port).
 */
export function clientIdUrlProblem(id: string): string | null {
  const problem = redirectUriProblem(id);
  if (problem) return problem;
  if (!id.startsWith('https://')) return 'must be an https URL';
  const path = new URL(id).pathname;
  if (path === '/' || path === '') return 'must have a path';
  if (/\/(\.|%2e){1,2}(\/|$)/i.test(id.replace(/[?].*$/, '')))
    return 'must not contain . or .. path segments';
  return null;
}

export class ClientMetadataDocuments {
  /** The deny list alone (not NODE_ALLOWED_NETWORKS, which is about managed nodes) and this server itself. */
  readonly addresses: NodeAddressPolicy;
  private readonly cache = new Map<string, { app: DocumentApp; expires: number }>();
  private readonly inFlight = new Map<string, Promise<DocumentResult>>();
  constructor(
    private readonly settings: DocumentSettings,
    private readonly ownOrigin: () => string,
    private readonly now: () => number = Date.now,
    private readonly fetchOptions: { resolver?: NodeResolver; ca?: string } = {},
    /** Fetches per address (`cimd:<ip>`), shared by every instance with a shared backend. */
    private readonly window: SlidingWindowStore = new MemorySlidingWindowStore(),
  ) {
    this.addresses = new NodeAddressPolicy({
      allowed: [],
      ...(fetchOptions.resolver ? { resolver: fetchOptions.resolver } : {}),
    });
  }

  /** The application a metadata-document client_id names, fetched (and cached) or why not. */
  async resolve(clientId: string, ip: string): Promise<DocumentResult> {
    const problem = clientIdUrlProblem(clientId);
    if (problem) return fail('invalid_url', `the client_id URL ${problem}`);
    if (new URL(clientId).origin === new URL(this.ownOrigin()).origin)
      return fail('invalid_url', 'the client_id URL names this server');
    const cached = this.cache.get(clientId);
    if (cached && cached.expires > this.now()) return { ok: true, app: cached.app, fetched: false };
    const running = this.inFlight.get(clientId);
    if (running) return running;
    if (this.inFlight.size >= MAX_FETCHES_IN_FLIGHT)
      return {
        ...fail('busy', 'the server is fetching too many metadata documents; try again shortly'),
        retryAfterSeconds: 1,
      };
    const { windowMs, perIp } = this.settings;
    const hit = await this.window.hit(`cimd:${ip}`, windowMs, perIp, this.now());
    // Asked again after the wait: a fetch of the same document may have started meanwhile.
    const started = this.inFlight.get(clientId);
    if (started) return started;
    if (!hit.admitted)
      return {
        ...fail(
          'rate_limited',
          `this address made the server fetch ${perIp} metadata documents within ${windowMs / 1000} s`,
        ),
        retryAfterSeconds: Math.ceil(hit.retryAfterMs / 1000),
      };
    if (this.inFlight.size >= MAX_FETCHES_IN_FLIGHT)
      return {
        ...fail('busy', 'the server is fetching too many metadata documents; try again shortly'),
        retryAfterSeconds: 1,
      };
    const fetching = this.fetch(clientId).finally(() => this.inFlight.delete(clientId));
    this.inFlight.set(clientId, fetching);
    return fetching;
  }

  private async fetch(clientId: string): Promise<DocumentResult> {
    const options: BoundedGetOptions = {
      guard: this.addresses,
      maxBytes: this.settings.maxBytes,
      timeoutMs: this.settings.timeoutMs,
      accept: 'application/json',
      ...(this.fetchOptions.ca ? { ca: this.fetchOptions.ca } : {}),
    };
    const got = await boundedHttpsGet(new URL(clientId), options);
    if (!got.ok) return fail(got.reason, got.message);
    if (got.status >= 300 && got.status < 400)
      return fail(
        'redirect',
        `it answered with a redirect (HTTP ${got.status}); metadata documents are fetched without following redirects`,
      );
    if (got.status !== 200) return fail('http_status', `it answered HTTP ${got.status}`);
    const encoding = String(got.headers['content-encoding'] ?? 'identity').toLowerCase();
    if (encoding !== 'identity') return fail('not_json', `it is encoded (${encoding.slice(0, 20)})`);
    let doc: unknown;
    try {
      doc = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(got.body));
    } catch {
      return fail('not_json', 'it is not JSON');
    }
    const named = (doc as { client_id?: unknown } | null)?.client_id;
    if (named !== clientId)
      return fail(
        'client_id_mismatch',
        typeof named === 'string'
          ? `its client_id (${shownUri(named)}) is not the URL it was fetched from`
          : 'it has no client_id equal to the URL it was fetched from',
      );
    const valid = validateAppMetadata(doc);
    if (!valid.ok) return fail('invalid_metadata', valid.problem.description);
    const app: DocumentApp = { client_id: clientId, ...valid.metadata };
    this.remember(app, cacheSeconds(got.headers['cache-control'], this.settings.cacheSeconds));
    return { ok: true, app, fetched: true };
  }

  private remember(app: DocumentApp, seconds: number): void {
    if (seconds <= 0) return;
    this.cache.delete(app.client_id);
    if (this.cache.size >= MAX_CACHED_DOCUMENTS) {
      const now = this.now();
      let soonest: [string, number] | undefined;
      for (const [k, v] of this.cache) {
        if (v.expires <= now) this.cache.delete(k);
        else if (!soonest || v.expires < soonest[1]) soonest = [k, v.expires];
      }
      if (this.cache.size >= MAX_CACHED_DOCUMENTS && soonest) this.cache.delete(soonest[0]);
    }
    this.cache.set(app.client_id, { app, expires: this.now() + seconds * 1000 });
  }
}

/** Seconds to keep a document: its max-age (none for no-store or no-cache), at most `cap`. */
export function cacheSeconds(header: string | string[] | undefined, cap: number): number {
  const value = Array.isArray(header) ? header.join(',') : (header ?? '');
  if (/(^|[\s,])no-(store|cache)\b/i.test(value)) return 0;
  const maxAge = /(?:^|[\s,])max-age\s*=\s*"?(\d{1,10})"?/i.exec(value)?.[1];
  return Math.min(maxAge === undefined ? DEFAULT_CACHE_SECONDS : Number(maxAge), cap);
}

function fail(
  reason: DocumentFailure,
  description: string,
): { ok: false; reason: DocumentFailure; description: string } {
  return { ok: false, reason, description };
}
