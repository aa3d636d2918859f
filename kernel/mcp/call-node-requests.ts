// What one tool call sent to managed nodes: the `ctx.node` the runner hands the handler. It charges the
// first request to each service against that service's rate-limit window, asks the caller's allowlist
// about each subject a tool checks before sending it, and keeps a bounded list of the distinct requests
// (and of the refused subjects) for the call's outcome record.
import type {
  AllowlistService,
  NodeRequest,
  NodeRequests,
  NodeRequestTicket,
  NodeService,
  Service,
} from '../sdk/types.ts';
import { ReadOnlyCredentialError } from '../errors/index.ts';
import { auditText } from './audit-text.ts';

/** Distinct requests listed on one outcome record; the others are only counted. */
export const MAX_LISTED_REQUESTS = 16;
/** Peers recorded per listed request (a name resolving to several addresses, retried). */
const MAX_PEERS = 4;
/** Distinct refused subjects listed on one outcome record (a call normally ends at its first). */
const MAX_DENIED = 4;

const NODE_SERVICES: ReadonlySet<string> = new Set<NodeService>([
  'axl',
  'ris',
  'ssh',
  'cupi',
  'phone',
  'serviceability',
]);

/** One distinct request as the outcome record shows it. */
export interface ListedRequest {
  service: NodeService;
  operation: string;
  address: string;
  /** Requests sent like this one (pages, attempts). */
  count: number;
  /** Where the transport really connected, when that differs from `address`. */
  peers?: string[];
}

const NO_TICKET: NodeRequestTicket = { connected: () => undefined };

export class CallNodeRequests implements NodeRequests {
  readonly #listed = new Map<string, ListedRequest>();
  readonly #charged = new Set<string>();
  /** Charges still on their way to the (possibly shared) window, which parallel requests wait for. */
  readonly #charging = new Map<string, Promise<void>>();
  readonly #denied: { service: AllowlistService | NodeService; operation: string; reason?: string }[] = [];
  #unlisted = 0;
  /** The first read-only credential the call opened: from then on it may only read. */
  #readOnly: string | undefined;
  #confirmed: { how: string; who: string; plan_id?: string } | undefined;

  /**
   * @param declared the tool's declared service, whose window the runner charged before the handler.
   * @param charge takes one request of a service's window, or throws the RATE_LIMITED error (audited).
   * @param check the caller's allowlist decision: throws ProfilePermissionError for a refused subject.
   */
  constructor(
    declared: Service,
    private readonly charge: (service: NodeService) => Promise<void>,
    private readonly check: (service: AllowlistService, subject: string) => void = () => undefined,
  ) {
    this.#charged.add(declared);
  }

  permit(service: AllowlistService, subject: string): void {
    try {
      this.check(service, subject);
    } catch (err) {
      this.#deny(service, String(subject));
      throw err;
    }
  }

  readOnlyCredential(what: string): void {
    this.#readOnly ??= auditText(String(what), 120);
  }

  #deny(service: AllowlistService | NodeService, subject: string, reason?: string): void {
    const operation = auditText(subject);
    const seen = this.#denied.some((d) => d.service === service && d.operation === operation);
    if (!seen && this.#denied.length < MAX_DENIED)
      this.#denied.push({ service, operation, ...(reason ? { reason } : {}) });
  }

  request(r: NodeRequest): Promise<NodeRequestTicket> {
    // Thrown before any await, as when `request` was synchronous (kernel 1.5): a plugin written then,
    // which does not await it, is still stopped before it sends. Only the rate charge is asynchronous.
    const service = String(r.service);
    // A plugin bug, not a caller's error: nothing must leave unaccounted for.
    if (!NODE_SERVICES.has(service)) throw new TypeError(`unknown node service ${service.slice(0, 16)}`);
    // Unclassified counts as a write: a transport that forgets to classify cannot send with a read-only login.
    if (this.#readOnly !== undefined && r.change_class !== 'read') {
      this.#deny(service as NodeService, String(r.operation), 'read_only_credential');
      throw new ReadOnlyCredentialError(
        `${auditText(String(r.operation), 80)} is ${r.change_class ?? 'not classified as a read'}, and this call uses the ${this.#readOnly}, stored read-only: nothing was sent`,
      );
    }
    const asked = this.#request(r);
    // A plugin written for the synchronous request (before kernel 1.6) may not await it: its refusal
    // must not become an unhandled rejection that stops the process. Awaiting callers still get it.
    asked.catch(() => undefined);
    return asked;
  }

  async #request(r: NodeRequest): Promise<NodeRequestTicket> {
    const service = String(r.service);
    if (!this.#charged.has(service)) {
      // Marked before the charge settles: parallel requests of one call take one slot, not one each; a
      // refused charge unmarks it, so the next request asks again (and is refused while the window is full).
      this.#charged.add(service);
      const charging = this.charge(service as NodeService);
      this.#charging.set(service, charging);
      try {
        await charging;
      } catch (err) {
        this.#charged.delete(service);
        throw err;
      } finally {
        this.#charging.delete(service);
      }
    } else await this.#charging.get(service);
    const operation = auditText(String(r.operation));
    const address = auditText(String(r.address));
    const key = JSON.stringify([service, operation, address]);
    let entry = this.#listed.get(key);
    if (!entry) {
      if (this.#listed.size >= MAX_LISTED_REQUESTS) {
        this.#unlisted++;
        return NO_TICKET;
      }
      entry = { service: service as NodeService, operation, address, count: 0 };
      this.#listed.set(key, entry);
    }
    entry.count++;
    const listed = entry;
    return {
      connected: (peer: string) => {
        const p = auditText(String(peer), 64);
        if (p === listed.address || listed.peers?.includes(p)) return;
        listed.peers ??= [];
        if (listed.peers.length < MAX_PEERS) listed.peers.push(p);
      },
    };
  }

  /** Who confirmed the call's change (ctx.confirmed), for its outcome record; the last word counts. */
  confirm(c: { how: string; who: string; plan_id?: string | undefined }): void {
    this.#confirmed = {
      how: auditText(String(c.how), 16),
      who: auditText(String(c.who), 128),
      ...(c.plan_id !== undefined ? { plan_id: auditText(String(c.plan_id), 64) } : {}),
    };
  }

  /** The outcome record's fields: nothing when the call sent nothing and was refused nothing. */
  auditFields(): Record<string, unknown> {
    const denied = {
      ...(this.#denied.length > 0 ? { denied_requests: this.#denied.map((d) => ({ ...d })) } : {}),
      ...(this.#confirmed ? { confirmed_by: { ...this.#confirmed } } : {}),
    };
    if (this.#listed.size === 0) return denied;
    return {
      node_requests: [...this.#listed.values()].map((e) => ({
        ...e,
        ...(e.peers ? { peers: [...e.peers] } : {}),
      })),
      ...(this.#unlisted > 0 ? { node_requests_unlisted: this.#unlisted } : {}),
      ...denied,
    };
  }
}
