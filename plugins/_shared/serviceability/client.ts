// The one way this server calls a VOS serviceability SOAP API (PerfMon, ControlCenterServices, log
// collection, CDR on Demand...): the caller's stored credential and certificate trust for the node, the
// node address policy, a slot of the node's per-API budget before each attempt, HTTPS with retries and
// backoff (reads; a change is sent once), an answer size cap, and the answer read as untrusted XML with
// faults coded. Nothing about any one API lives here: each describes itself with a ServiceabilityApi.
import type { Agent } from 'node:https';
import type { ClientVault, NodeAddressGuard, Product } from '../../../kernel/sdk/index.ts';
import { currentNodeRequests, ServiceabilityError } from '../../../kernel/sdk/index.ts';
import type { HttpAnswer, NodeEndpoint, RetryPolicy } from '../axl/transport.ts';
import { DEFAULT_RETRY, httpsExchange, tlsAgent } from '../axl/transport.ts';
import { loadEndpoint, PORTS } from '../node/endpoint.ts';
import { retriedExchange } from '../node/retried-exchange.ts';
import type { XmlNode } from '../node/xml-text.ts';
import type { ServiceabilityApi } from './api.ts';
import { SERVICEABILITY_LOGIN } from './api.ts';
import { NodeRateFault, readAnswer } from './answer.ts';
import type { SoapFields } from './envelope.ts';
import { soapEnvelope } from './envelope.ts';
import type { NodeServiceLimitsOptions } from './limits.ts';
import { NodeServiceLimits, nodeKey, ServiceabilityRateLimitError } from './limits.ts';
import { retryHint } from '../node/window-limiter.ts';

export interface ServiceabilityClientOptions {
  /** Whose stored credential logs in (SERVICEABILITY_LOGIN says which kind). */
  product: Product;
  /** Shared budgets; one per plugin (a node belongs to one product). Default: a new one from `limits`. */
  limits?: NodeServiceLimits;
  /** Options of the budgets when `limits` is not given (tests shorten the window). */
  limitOptions?: NodeServiceLimitsOptions;
  /**
   * Longest wait for a free request in the node's window before refusing with the retry time. 20 s by
   * default: worth waiting inside a tool call, well short of MCP clients' usual request timeouts.
   */
  maxWaitMs?: number;
  retry?: RetryPolicy;
  /** Per HTTPS request; default 60 s. */
  timeoutMs?: number;
  /** Largest answer read, unless a call says otherwise; default 8 MiB. */
  maxAnswerBytes?: number;
  /** Where nodes may be (the kernel's node address policy); unset: the always-refused list only. */
  addresses?: NodeAddressGuard;
}

export interface SoapCall {
  api: ServiceabilityApi;
  /** The operation, also the SOAPAction (the serviceability WSDLs name each action after it). */
  operation: string;
  fields?: SoapFields;
  /** Elements always read as arrays in the answer (`item`, `Counter`, `ArrayOfCounter`...). */
  arrays?: readonly string[];
  /**
   * False for an operation that changes the node (start a service, open a session): sent once, never
   * repeated after it may have reached the node. Default true.
   */
  idempotent?: boolean;
  /** Largest answer for this call (a file download more, a status less); default the client's. */
  maxAnswerBytes?: number;
  /**
   * Hears the node's whole answer before it is read (a file download takes its attachment from it);
   * the answer is still read as usual, faults coded, and its response element returned.
   */
  onAnswer?: (answer: HttpAnswer) => void;
  signal?: AbortSignal;
}

/**
 * Throws ProfilePermissionError unless the caller's serviceability allowlist (its profile, narrowed by its
 * client.json) permits every operation. Each request asks for its own before it leaves; a sequence that
 * must run whole (a PerfMon session: open, add, collect, close) asks for all of them before its first,
 * so a refusal never strands what an earlier request opened on the node.
 */
export function permitOperations(operations: readonly string[]): void {
  const requests = currentNodeRequests();
  for (const operation of operations) requests.permit('serviceability', operation);
}

export class ServiceabilityClient {
  readonly limits: NodeServiceLimits;
  readonly product: Product;
  readonly #o: ServiceabilityClientOptions;

  constructor(o: ServiceabilityClientOptions) {
    this.#o = o;
    this.product = o.product;
    this.limits = o.limits ?? new NodeServiceLimits(o.limitOptions);
  }

  /** The caller's endpoint for `host` (its stored credential, pinned certificate, address policy). */
  endpoint(vault: ClientVault, host: string): Promise<NodeEndpoint> {
    return loadEndpoint(
      vault,
      this.product,
      SERVICEABILITY_LOGIN[this.product],
      host,
      PORTS.https,
      this.#o.addresses,
    );
  }

  /**
   * Several calls to one node over one keep-alive TLS session (a PerfMon session's open, add, collect,
   * close); the agent is destroyed afterwards, so nothing idles.
   */
  async session<T>(
    node: NodeEndpoint,
    fn: (call: (c: SoapCall) => Promise<XmlNode>) => Promise<T>,
  ): Promise<T> {
    const agent = tlsAgent(node);
    try {
      return await fn((c) => this.#call(node, agent, c));
    } finally {
      agent.destroy();
    }
  }

  /** One call, on its own TLS session. */
  call(node: NodeEndpoint, c: SoapCall): Promise<XmlNode> {
    return this.session(node, (call) => call(c));
  }

  /** The API's budget on the node now, as answers report it. */
  budget(api: ServiceabilityApi, node: NodeEndpoint): Promise<{ per_minute: number; remaining: number }> {
    return this.limits.budget(api, node);
  }

  async #call(node: NodeEndpoint, agent: Agent, c: SoapCall): Promise<XmlNode> {
    // Every operation, not only the tool's main one, before a budget slot is taken or a byte is sent.
    permitOperations([c.operation]);
    const limiter = this.limits.of(c.api);
    const key = nodeKey(node);
    const where = `${node.host}:${node.port}`;
    const maxBytes = c.maxAnswerBytes ?? this.#o.maxAnswerBytes ?? 8 * 1024 * 1024;
    const body = soapEnvelope(c.api.namespace, c.operation, c.fields ?? {});
    // Each attempt takes its own slot: a retried request may have reached the node and been counted there.
    const answer = await retriedExchange(
      node,
      this.#o.retry ?? DEFAULT_RETRY,
      async (attemptSignal) => {
        await limiter.acquire(key, this.#o.maxWaitMs ?? 20_000, attemptSignal);
        return httpsExchange(node, agent, {
          service: 'serviceability',
          operation: `${c.api.name}.${c.operation}`,
          method: 'POST',
          path: c.api.path,
          timeoutMs: this.#o.timeoutMs ?? 60_000,
          maxBytes,
          headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: `"${c.operation}"` },
          body,
          signal: attemptSignal,
        });
      },
      {
        idempotent: c.idempotent ?? true,
        signal: c.signal,
        tooLarge: () =>
          new ServiceabilityError(
            `${c.api.name} on ${where} sent more than ${maxBytes} bytes for ${c.operation}; refused`,
          ),
      },
    );
    try {
      c.onAnswer?.(answer);
      return readAnswer(answer, {
        api: c.api,
        operation: c.operation,
        where,
        arrays: new Set(c.arrays ?? []),
      });
    } catch (err) {
      if (!(err instanceof NodeRateFault)) throw err;
      const seconds = await limiter.nodeRefused(key, err.nodeLimit);
      throw new ServiceabilityRateLimitError(
        `${err.message} Other clients of the node use the same budget; ${retryHint(seconds)}`,
        seconds,
        'node',
      );
    }
  }
}
