// The tool call a piece of shared client code works for, found through the call's async context. The
// shared transports (AXL, RIS, CUPI, phone HTTP, the VOS shell pool) are long-lived and serve every
// call; threading `ctx.node` through each of their methods would leave any path that forgets it
// unaudited and uncharged, so they ask here instead, at the one place each request leaves.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { NodeRequests, NodeRequestTicket } from './types.ts';

const scope = new AsyncLocalStorage<NodeRequests>();

const NO_TICKET: NodeRequestTicket = { connected: () => undefined };

/** Outside any tool call (a background task, a unit test of a client): nothing to record or charge. */
const NOBODY: NodeRequests = { request: () => Promise.resolve(NO_TICKET), permit: () => undefined };

/**
 * The `ctx.node` of the tool call whose handler (or anything it awaits) is running, for code that is
 * not handed ctx; outside a tool call, one that records nothing. Added in kernel 1.1.
 */
export function currentNodeRequests(): NodeRequests {
  return scope.getStore() ?? NOBODY;
}

/** Runs a handler as the call that `requests` accounts for (the tool runner only). */
export function runWithNodeRequests<T>(requests: NodeRequests, fn: () => T): T {
  return scope.run(requests, fn);
}
