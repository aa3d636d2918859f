// The RisPort70 client of the CUCM plugin: WSDL download into the schema cache, a connectivity probe
// that spends nothing of the node's budget, and selectCmDevice(Ext) queries paged with StateInfo,
// de-duplicated across nodes, within the cluster's 15 requests per minute shared by every caller.
import type { Agent } from 'node:https';
import type { ClientVault, NodeAddressGuard, Product } from '../../../kernel/sdk/index.ts';
import { BadRequestError, RISError } from '../../../kernel/sdk/index.ts';
import type { HttpAnswer, NodeEndpoint, RetryPolicy } from '../../_shared/axl/transport.ts';
import { DEFAULT_RETRY, httpsExchange, tlsAgent } from '../../_shared/axl/transport.ts';
import { loadEndpoint, PORTS } from '../../_shared/node/endpoint.ts';
import { retriedExchange } from '../../_shared/node/retried-exchange.ts';
import type { RisPage } from './answer.ts';
import { readSelectAnswer } from './answer.ts';
import type { RisOperation } from './constants.ts';
import { RIS_PATH } from './constants.ts';
import { ContinuationStore, decodeCursor, encodeCursor, queryFingerprint } from './continuation.ts';
import type { SelectCriteria } from './envelope.ts';
import { buildSelectEnvelope, DEFAULT_CRITERIA } from './envelope.ts';
import { RisNodeRateFault, RisRateLimitError, retryHint } from './errors.ts';
import { DeviceMerger } from './devices.ts';
import { readPages } from './paging.ts';
import { ClusterRateLimiter } from './rate-limiter.ts';
import type { RisAnswer } from './summary.ts';
import { summarise, summariseCti } from './summary.ts';
import type { CtiCriteria, CtiItem, CtiPage } from './cti.ts';
import { buildCtiEnvelope, CTI_OPERATION, readCtiAnswer } from './cti.ts';
import { RisSchemaCache } from './schema-cache.ts';
import type { FetchOptions, RisDownloadResult } from './toolkit.ts';
import { downloadRisWsdl, fetchRisWsdl } from './toolkit.ts';

export type { RisAnswer } from './summary.ts';

export interface RisServiceOptions {
  /** The product's schema cache root (`<STATE>/schema-cache/cucm`); the WSDL goes to `ris/70/`. */
  schemaCache: string;
  /** The tool that downloads the WSDL, named when a query finds none. */
  downloadTool: string;
  /** Whose stored AXL credential RIS logs in with. Default 'cucm'. */
  product?: Product;
  /** Requests per minute per cluster; default 15 (the node's default). Ignored when `limiter` is given. */
  perMinute?: number;
  /** Window length; default 60 s. Tests shorten it. Ignored when `limiter` is given. */
  windowMs?: number;
  /** Safety added to the window (see ClusterRateLimiter); default 1 s. Ignored when `limiter` is given. */
  marginMs?: number;
  /** Several services sharing one limiter share the clusters' windows (one per process is the norm). */
  limiter?: ClusterRateLimiter;
  /**
   * Longest wait for a free request in the cluster's window before refusing with the retry time. 20 s by
   * default: worth waiting inside a tool call, well short of MCP clients' usual request timeouts.
   */
  maxWaitMs?: number;
  retry?: RetryPolicy;
  /** Per HTTPS request; default 60 s (a 2,000-device answer on a busy node takes seconds). */
  timeoutMs?: number;
  /** Largest answer read; default 32 MiB (2,000 devices are a few MB of XML). */
  maxAnswerBytes?: number;
  /** Largest WSDL accepted; default 2 MiB (the real one is tens of KB). */
  maxWsdlBytes?: number;
  /** Where nodes may be (the kernel's node address policy); unset: the always-refused list only. */
  addresses?: NodeAddressGuard;
}

export interface RisQuery {
  operation: RisOperation;
  /** Missing fields take RisPort's "any" values; `selectItems` defaults to ['*']. */
  criteria?: Partial<SelectCriteria>;
  /** A `state_info` cursor from an earlier answer of the same query, to continue it. */
  stateInfo?: string;
  /** Unique devices in this answer at most; default 2000. */
  maxDevices?: number;
  /** Requests this answer may spend of the cluster's budget; default 5. */
  maxRequests?: number;
}

export interface CtiQuery {
  criteria: CtiCriteria;
  /** A `state_info` cursor from an earlier answer of the same query, to continue it. */
  stateInfo?: string;
  /** Items in this answer at most; default 2000. */
  maxItems?: number;
  /** Requests this answer may spend of the cluster's budget; default 5. */
  maxRequests?: number;
}

export interface QueryContext {
  /** Whose query it is (the MCP client): cursors and held de-duplication state are per owner. */
  owner: string;
  /** The host as the caller named it (the credential key), for fingerprints and messages. */
  host?: string;
  signal?: AbortSignal;
}

export interface RisProbeResult extends Record<string, unknown> {
  wsdl_operations: number;
  authenticated: boolean;
  rate_budget_remaining: number;
}

export class RisService {
  readonly schema: RisSchemaCache;
  readonly limiter: ClusterRateLimiter;
  readonly #o: RisServiceOptions;
  readonly #continuations = new ContinuationStore();

  constructor(o: RisServiceOptions) {
    this.#o = o;
    this.schema = new RisSchemaCache(o.schemaCache, o.downloadTool);
    this.limiter =
      o.limiter ??
      new ClusterRateLimiter({
        ...(o.perMinute !== undefined ? { perMinute: o.perMinute } : {}),
        ...(o.windowMs !== undefined ? { windowMs: o.windowMs } : {}),
        ...(o.marginMs !== undefined ? { marginMs: o.marginMs } : {}),
      });
  }

  /** The caller's RIS endpoint: its stored AXL credential for `host` (RisPort70 takes the same login). */
  endpoint(vault: ClientVault, host: string): Promise<NodeEndpoint> {
    return loadEndpoint(vault, this.#o.product ?? 'cucm', 'axl', host, PORTS.https, this.#o.addresses);
  }

  async probe(vault: ClientVault, host: string, signal?: AbortSignal): Promise<RisProbeResult> {
    return this.probeEndpoint(await this.endpoint(vault, host), signal);
  }

  async download(vault: ClientVault, host: string, signal?: AbortSignal): Promise<RisDownloadResult> {
    return this.downloadFrom(await this.endpoint(vault, host), signal);
  }

  async query(vault: ClientVault, host: string, q: RisQuery, signal?: AbortSignal): Promise<RisAnswer> {
    return this.queryEndpoint(await this.endpoint(vault, host), q, {
      owner: vault.client,
      host,
      ...(signal ? { signal } : {}),
    });
  }

  /**
   * Reachability, TLS and login without a SOAP operation: the WSDL (validated), then the service URL
   * itself with Basic auth, which answers 401 to a wrong login (405 or an HTML page otherwise). Neither
   * counts against the node's per-minute RisPort budget.
   */
  async probeEndpoint(node: NodeEndpoint, signal?: AbortSignal): Promise<RisProbeResult> {
    return this.#withAgent(node, async (agent) => {
      const { wsdl } = await fetchRisWsdl(node, agent, this.#fetchOptions(signal));
      const answer = await retriedExchange(
        node,
        this.#retry(),
        (attemptSignal) =>
          httpsExchange(node, agent, {
            service: 'ris',
            method: 'GET',
            path: RIS_PATH,
            timeoutMs: this.#timeout(),
            maxBytes: 1024 * 1024,
            signal: attemptSignal,
          }),
        { signal, tooLarge: () => tooLarge(node, 1024 * 1024, 'its service page') },
      );
      if (answer.status === 401 || answer.status === 403) {
        throw new RISError(
          `authentication to RisPort70 on ${node.host}:${node.port} failed (HTTP ${answer.status}): check the stored AXL credential and that the user has the Standard RealtimeAndTraceCollection role`,
        );
      }
      return {
        wsdl_operations: wsdl.operations.length,
        authenticated: true,
        rate_budget_remaining: await this.limiter.remaining(clusterKey(node)),
      };
    });
  }

  async downloadFrom(node: NodeEndpoint, signal?: AbortSignal): Promise<RisDownloadResult> {
    return this.#withAgent(node, (agent) =>
      downloadRisWsdl(node, agent, this.schema, this.#fetchOptions(signal)),
    );
  }

  async queryEndpoint(node: NodeEndpoint, q: RisQuery, ctx: QueryContext): Promise<RisAnswer> {
    const wsdl = this.schema.require(q.operation);
    // An explicit undefined must not erase a default (the node would get an empty criterion).
    const given = Object.entries(q.criteria ?? {}).filter(([, v]) => v !== undefined);
    const criteria: SelectCriteria = {
      ...DEFAULT_CRITERIA,
      ...(Object.fromEntries(given) as Partial<SelectCriteria>),
    };
    if (criteria.selectItems.length === 0) criteria.selectItems = ['*'];
    const { maxReturnedDevices: perRequest, ...selection } = criteria;
    const { fingerprint, resumed } = this.#resume(node, ctx, q.operation, selection, q.stateInfo);
    const stateInfo = resumed?.stateInfo ?? '';
    const heldId = resumed?.id;
    const earlier = resumed ? this.#continuations.get(ctx.owner, resumed.id) : undefined;
    const merger = new DeviceMerger(earlier);
    const soapAction = wsdl.soapActions.get(q.operation) ?? q.operation;
    const outcome = await this.#withAgent(node, (agent) =>
      readPages<RisPage>({
        stateInfo,
        maxRequests: Math.max(1, q.maxRequests ?? 5),
        maxDevices: Math.max(1, q.maxDevices ?? 2000),
        perRequest,
        size: () => merger.size,
        take: (page) => {
          for (const n of page.nodes) for (const d of n.devices) merger.add(d);
        },
        send: (si, max) =>
          this.#select(
            node,
            agent,
            q.operation,
            soapAction,
            { ...criteria, maxReturnedDevices: max },
            si,
            ctx.signal,
          ),
      }),
    );
    let cursor: string | undefined;
    // Finished (complete, or done but with records that moved: nothing is left to continue).
    if (outcome.complete || outcome.stateInfo === '') this.#continuations.drop(heldId);
    else
      cursor = encodeCursor(
        this.#continuations.save(ctx.owner, heldId, merger.scores()),
        outcome.stateInfo,
        fingerprint,
      );
    return summarise(q.operation, outcome, merger, {
      ...(cursor ? { cursor } : {}),
      ...(q.stateInfo ? { dedupeAcrossCalls: earlier !== undefined } : {}),
      rate: await this.#rate(node),
    });
  }

  async queryCti(vault: ClientVault, host: string, q: CtiQuery, signal?: AbortSignal): Promise<RisAnswer> {
    return this.queryCtiEndpoint(await this.endpoint(vault, host), q, {
      owner: vault.client,
      host,
      ...(signal ? { signal } : {}),
    });
  }

  /** selectCtiItem, every page with StateInfo within the budgets; items are per node, never merged. */
  async queryCtiEndpoint(node: NodeEndpoint, q: CtiQuery, ctx: QueryContext): Promise<RisAnswer> {
    const wsdl = this.schema.require(CTI_OPERATION);
    const { maxReturnedItems: perRequest, ...selection } = q.criteria;
    const { fingerprint, resumed } = this.#resume(node, ctx, CTI_OPERATION, selection, q.stateInfo);
    const stateInfo = resumed?.stateInfo ?? '';
    const items: CtiItem[] = [];
    const soapAction = wsdl.soapActions.get(CTI_OPERATION) ?? CTI_OPERATION;
    const outcome = await this.#withAgent(node, (agent) =>
      readPages<CtiPage>({
        stateInfo,
        maxRequests: Math.max(1, q.maxRequests ?? 5),
        maxDevices: Math.max(1, q.maxItems ?? 2000),
        perRequest,
        size: () => items.length,
        take: (page) => {
          for (const n of page.nodes) items.push(...n.items);
        },
        send: (si, max) =>
          this.#post(
            node,
            agent,
            CTI_OPERATION,
            soapAction,
            buildCtiEnvelope({ ...q.criteria, maxReturnedItems: max }, si),
            ctx.signal,
            readCtiAnswer,
            'items',
          ),
      }),
    );
    return summariseCti(outcome, items, {
      // Nothing is held for CTI items (they are not merged across calls): the cursor only carries StateInfo.
      ...(outcome.complete || outcome.stateInfo === ''
        ? {}
        : { cursor: encodeCursor('', outcome.stateInfo, fingerprint) }),
      rate: await this.#rate(node),
    });
  }

  /**
   * The query's fingerprint (caller, host, operation, criteria), and the cursor its state_info carries
   * when it continues an earlier answer: only one of the very same query.
   */
  #resume(
    node: NodeEndpoint,
    ctx: QueryContext,
    operation: string,
    selection: unknown,
    stateInfo: string | undefined,
  ): { fingerprint: string; resumed?: ReturnType<typeof decodeCursor> } {
    const fingerprint = queryFingerprint([
      ctx.owner,
      (ctx.host ?? clusterKey(node)).toLowerCase(),
      operation,
      selection,
    ]);
    if (stateInfo === undefined || stateInfo === '') return { fingerprint };
    const resumed = decodeCursor(stateInfo);
    if (resumed.fingerprint !== fingerprint)
      throw new BadRequestError(
        'this state_info belongs to another query (caller, host, operation or criteria differ)',
      );
    return { fingerprint, resumed };
  }

  /** The cluster's RisPort budget after this query, as every answer reports it. */
  #rate(node: NodeEndpoint): Promise<{ per_minute: number; remaining: number }> {
    const cluster = clusterKey(node);
    return this.limiter.budget(cluster);
  }

  /** One selectCmDevice(Ext) request: a slot of the cluster's window first, then the POST. */
  #select(
    node: NodeEndpoint,
    agent: Agent,
    operation: RisOperation,
    soapAction: string,
    criteria: SelectCriteria,
    stateInfo: string,
    signal: AbortSignal | undefined,
  ): Promise<RisPage> {
    const body = buildSelectEnvelope(operation, criteria, stateInfo);
    return this.#post(node, agent, operation, soapAction, body, signal, readSelectAnswer, 'devices');
  }

  /** One RisPort70 POST of `body`, read by `read`; the node's rate fault becomes RisRateLimitError. */
  async #post<T>(
    node: NodeEndpoint,
    agent: Agent,
    operation: string,
    soapAction: string,
    body: string,
    signal: AbortSignal | undefined,
    read: (answer: HttpAnswer, host: string) => T,
    what: string,
  ): Promise<T> {
    const cluster = clusterKey(node);
    const maxBytes = this.#o.maxAnswerBytes ?? 32 * 1024 * 1024;
    // Each attempt takes its own slot: a retried request may have reached the node and been counted there.
    // A query only reads: retried after network errors and busy answers (503, 429) within the budget.
    const answer = await retriedExchange(
      node,
      this.#retry(),
      async (attemptSignal) => {
        await this.limiter.acquire(cluster, this.#o.maxWaitMs ?? 20_000, attemptSignal);
        return httpsExchange(node, agent, {
          service: 'ris',
          operation,
          method: 'POST',
          path: RIS_PATH,
          timeoutMs: this.#timeout(),
          maxBytes,
          headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: `"${soapAction}"` },
          body,
          signal: attemptSignal,
        });
      },
      { signal, tooLarge: () => tooLarge(node, maxBytes, `an answer (ask fewer ${what} per request)`) },
    );
    try {
      return read(answer, `${node.host}:${node.port}`);
    } catch (err) {
      if (!(err instanceof RisNodeRateFault)) throw err;
      const seconds = await this.limiter.nodeRefused(cluster, err.nodeLimit);
      throw new RisRateLimitError(
        `${err.message} Other clients of the cluster use the same budget; ${retryHint(seconds)}`,
        seconds,
        'node',
      );
    }
  }

  async #withAgent<T>(node: NodeEndpoint, fn: (agent: Agent) => Promise<T>): Promise<T> {
    // One keep-alive agent per call: the pages of a query share its TLS session; nothing idles afterwards.
    const agent = tlsAgent(node);
    try {
      return await fn(agent);
    } finally {
      agent.destroy();
    }
  }

  #fetchOptions(signal?: AbortSignal): FetchOptions {
    return {
      retry: this.#retry(),
      timeoutMs: this.#timeout(),
      maxBytes: this.#o.maxWsdlBytes ?? 2 * 1024 * 1024,
      ...(signal ? { signal } : {}),
    };
  }

  #retry(): RetryPolicy {
    return this.#o.retry ?? DEFAULT_RETRY;
  }

  #timeout(): number {
    return this.#o.timeoutMs ?? 60_000;
  }

  /** Forgets held continuation state; nothing else outlives a call. */
  close(): void {
    this.#continuations.clear();
  }
}

/** The cluster's window key: the RisPort70 endpoint every client of the cluster reaches. */
export function clusterKey(node: NodeEndpoint): string {
  return `${node.host.toLowerCase()}:${node.port}`;
}

function tooLarge(node: NodeEndpoint, maxBytes: number, what: string): RISError {
  return new RISError(
    `RisPort70 on ${node.host}:${node.port} sent more than ${maxBytes} bytes for ${what}; refused`,
  );
}
