// One HTTP request to a node as every client here sends it (AXL, RisPort70, the serviceability APIs, the
// toolkit and WSDL downloads, phone screenshots): retried with backoff after network failures and busy
// answers (503, 429, after their Retry-After) within the retry budget, a write only when it cannot have
// reached the node, and an answer past its size cap refused unread as the client's own coded error. The
// clients differ in what they send and how they read the answer, not in this.
import type { HttpAnswer, NodeEndpoint, RetryPolicy } from '../axl/transport.ts';
import { busyAnswer, ResponseTooLargeError, withNetworkRetry } from '../axl/transport.ts';

export interface RetriedExchangeOptions {
  /** The call's cancellation: aborts the exchange under way and any wait. */
  signal?: AbortSignal | undefined;
  /** False for a write (sent again only when it cannot have reached the node). Default true. */
  idempotent?: boolean;
  /** What a busy answer is, when more than HTTP 503 and 429 (busyAnswer). */
  busy?: (answer: HttpAnswer) => number | null | undefined;
  /** Waits after busy answers that name none (default: the policy's backoff). */
  busyBackoffMs?: readonly number[];
  /** The client's coded error for an answer over the size cap its request set. */
  tooLarge: (cause: ResponseTooLargeError) => Error;
}

/** `attempt` (one exchange) sent as above; the node's answer, busy or not, once the retries are over. */
export async function retriedExchange(
  node: NodeEndpoint,
  policy: RetryPolicy,
  attempt: (signal: AbortSignal) => Promise<HttpAnswer>,
  o: RetriedExchangeOptions,
): Promise<HttpAnswer> {
  try {
    return await withNetworkRetry(node, policy, attempt, {
      busy: o.busy ?? busyAnswer,
      ...(o.idempotent !== undefined ? { idempotent: o.idempotent } : {}),
      ...(o.busyBackoffMs ? { busyBackoffMs: o.busyBackoffMs } : {}),
      ...(o.signal ? { signal: o.signal } : {}),
    });
  } catch (err) {
    if (err instanceof ResponseTooLargeError) throw o.tooLarge(err);
    throw err;
  }
}
