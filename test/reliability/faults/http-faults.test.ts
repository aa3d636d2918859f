// Faults of AXL and CUPI nodes, through the real tools: a node that is down, one that drops every
// connection, one that stalls past its time budget, one that trickles its answer for ever, one that
// resets mid-answer, one that is busy. Reads are retried a bounded number of times with backoff and then
// fail with ConnectivityError (or the product's own code for a busy node); a write that may have reached
// the node is never repeated; nothing is left open on the node.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startProductStack, type ProductStack } from '../../helpers/product-stack.ts';
import { nothingOpen, timedFail } from './fault-checks.ts';
import { closedPort, faultTls, httpFaultNode, type Behaviour, type HttpFaultNode } from './fault-servers.ts';

const ATTEMPTS = 3;
const BASE_MS = 200;
const TIMEOUT_MS = 1_500;
const BUDGET_MS = 5_000;
/** The least two backoff waits can take (200 and 400 ms, jittered by -25%). */
const MIN_BACKOFF_MS = (BASE_MS + 2 * BASE_MS) * 0.75;

describe('faults: AXL and CUPI nodes that are down, refusing, slow, resetting or busy', () => {
  let s: ProductStack;
  const nodes: HttpFaultNode[] = [];
  let hostSeq = 0;

  before(async () => {
    s = await startProductStack({
      env: {
        NODE_RETRY_ATTEMPTS: String(ATTEMPTS),
        NODE_RETRY_BASE_MS: String(BASE_MS),
        NODE_TIMEOUT_MS: String(TIMEOUT_MS),
        NODE_BUDGET_MS: String(BUDGET_MS),
      },
    });
  });
  after(async () => {
    for (const n of nodes) await n.close();
    await s?.stop();
  });

  /** Stores the admin's credential of `kind` for a new host served at `address`. */
  const hostAt = async (product: 'cucm' | 'cuc', address: string): Promise<string> => {
    const host = `fault${++hostSeq}.example`;
    await s.ok('admin', `${product}_store_credentials`, {
      host,
      username: 'admin',
      password: 'fault-node-password',
      address,
      ca_cert_pem: faultTls().certPem,
    });
    return host;
  };

  const node = async (plan: (index: number) => Behaviour, dropOnAccept = false): Promise<HttpFaultNode> => {
    const n = await httpFaultNode({ plan: (_req, i) => plan(i), dropOnAccept });
    nodes.push(n);
    return n;
  };

  it('a node that is down: ConnectivityError after the bounded retries, with their backoff', async () => {
    const host = await hostAt('cucm', `127.0.0.1:${await closedPort()}`);
    const r = await timedFail(s, 'cucm_get_version', { host });
    assert.equal(r.error, 'ConnectivityError', r.message);
    assert.match(r.message, new RegExp(`unreachable after ${ATTEMPTS} attempts \\(ECONNREFUSED`));
    assert.ok(r.ms >= MIN_BACKOFF_MS, `gave up after ${Math.round(r.ms)} ms, before its backoff`);
    assert.ok(r.ms < BUDGET_MS, `took ${Math.round(r.ms)} ms`);
    assert.doesNotMatch(r.message, /fault-node-password/);
  });

  it('a node that drops every connection: exactly the allowed attempts, then ConnectivityError', async () => {
    const n = await node(() => ({ kind: 'stall' }), true);
    const host = await hostAt('cucm', n.address);
    const r = await timedFail(s, 'cucm_get_version', { host });
    assert.equal(r.error, 'ConnectivityError', r.message);
    assert.match(r.message, new RegExp(`after ${ATTEMPTS} attempts`));
    assert.equal(n.connections(), ATTEMPTS, 'one connection per attempt, no more');
    await nothingOpen(n);
  });

  it('a node that never answers: each attempt times out, the whole call ends within its budget', async () => {
    const n = await node(() => ({ kind: 'stall' }));
    const host = await hostAt('cucm', n.address);
    const r = await timedFail(s, 'cucm_get_version', { host });
    assert.equal(r.error, 'ConnectivityError', r.message);
    assert.match(r.message, /time budget of 5 s|within 1500 ms/);
    assert.ok(r.ms >= TIMEOUT_MS, `gave up after ${Math.round(r.ms)} ms, before one attempt's timeout`);
    assert.ok(r.ms < BUDGET_MS + 1_500, `took ${Math.round(r.ms)} ms, past the budget of ${BUDGET_MS}`);
    assert.ok(n.requests.length >= 2 && n.requests.length <= ATTEMPTS, `${n.requests.length} requests`);
    await nothingOpen(n);
  });

  it('a node that announces too much: refused unread, at once', async () => {
    const n = await node(() => ({ kind: 'trickle', everyMs: 100, length: 100_000_000 }));
    const host = await hostAt('cucm', n.address);
    const r = await timedFail(s, 'cucm_get_version', { host });
    assert.equal(r.error, 'AXLError', r.message);
    assert.match(r.message, /over 1 MiB; it was abandoned unread/);
    assert.ok(r.ms < TIMEOUT_MS, `took ${Math.round(r.ms)} ms`);
    await nothingOpen(n);
  });

  it('a node that trickles its answer for ever: cut at the time budget, the connection closed', async () => {
    const n = await node(() => ({ kind: 'trickle', everyMs: 100, length: 500_000 }));
    const host = await hostAt('cucm', n.address);
    const r = await timedFail(s, 'cucm_get_version', { host });
    assert.equal(r.error, 'ConnectivityError', r.message);
    assert.match(r.message, /did not answer within the time budget of 5 s/);
    assert.ok(r.ms >= BUDGET_MS - 100 && r.ms < BUDGET_MS + 1_500, `took ${Math.round(r.ms)} ms`);
    await nothingOpen(n);
  });

  it('a node that resets mid-answer: a read is retried, then ConnectivityError', async () => {
    const n = await node(() => ({ kind: 'reset-body', length: 4096, bytes: 100 }));
    const host = await hostAt('cucm', n.address);
    const r = await timedFail(s, 'cucm_get_version', { host });
    assert.equal(r.error, 'ConnectivityError', r.message);
    assert.match(r.message, new RegExp(`after ${ATTEMPTS} attempts`));
    assert.equal(n.requests.length, ATTEMPTS);
    await nothingOpen(n);
  });

  it('a node that resets in the middle of its headers: the same bounded retries', async () => {
    const n = await node(() => ({ kind: 'reset-headers', bytes: 20 }));
    const host = await hostAt('cuc', n.address);
    const r = await timedFail(s, 'cuc_get_version', { host });
    assert.equal(r.error, 'ConnectivityError', r.message);
    assert.equal(n.requests.length, ATTEMPTS);
    await nothingOpen(n);
  });

  it('a write cut by a reset after it was sent is not repeated, and says so', async () => {
    const n = await node(() => ({ kind: 'reset-body', length: 4096, bytes: 10 }));
    const host = await hostAt('cuc', n.address);
    const r = await timedFail(s, 'cuc_cupi_call', {
      host,
      method: 'POST',
      path: '/vmrest/users',
      body: { Alias: 'fault-user' },
    });
    assert.equal(r.error, 'ConnectivityError', r.message);
    assert.match(r.message, /not repeated/);
    assert.equal(n.requests.filter((q) => q.method === 'POST').length, 1, 'the POST was sent once');
    await nothingOpen(n);
  });

  it('a busy node: its Retry-After is honoured, and the call succeeds once it answers', async () => {
    const product = JSON.stringify({ name: 'Cisco Unity Connection', version: '15.0.1.10000-1' });
    const n = await node((i) =>
      i < 2
        ? { kind: 'busy', status: 503, retryAfter: '1' }
        : { kind: 'answer', status: 200, headers: { 'content-type': 'application/json' }, body: product },
    );
    const host = await hostAt('cuc', n.address);
    const started = performance.now();
    const ok = await s.ok('admin', 'cuc_get_version', { host });
    const ms = performance.now() - started;
    assert.match(JSON.stringify(ok), /15\.0\.1\.10000-1/);
    assert.equal(n.requests.length, 3);
    assert.ok(ms >= 1_900, `the node asked for 1 s twice; the call took ${Math.round(ms)} ms`);
  });

  it('a node busy past every retry: CUPIError naming the wait it asks for', async () => {
    const n = await node(() => ({ kind: 'busy', status: 503, retryAfter: '1' }));
    const host = await hostAt('cuc', n.address);
    const r = await timedFail(s, 'cuc_get_version', { host });
    assert.equal(r.error, 'CUPIError', r.message);
    assert.match(r.message, /busy/);
    assert.ok(n.requests.length <= ATTEMPTS + 1, `${n.requests.length} requests: bounded`);
    await nothingOpen(n);
  });

  it('no MCP session is left behind by the failed calls', async () => {
    const text = await (await s.k.fetch(`${s.k.url}/metrics`)).text();
    const open = Number(/^ucmcp_mcp_sessions (\d+)/m.exec(text)?.[1]);
    // The stack's four clients, each with its one session.
    assert.equal(
      open,
      4,
      text
        .split('\n')
        .filter((l) => l.includes('mcp_sessions'))
        .join('\n'),
    );
  });
});
