// Issue 24: a 2025-11-25 session (the SDK v1 client, which negotiates 2025-11-25 and keeps an
// Mcp-Session-Id) continues while its requests land on different instances: the round-robin balancer
// sends each request to the next instance, so the session is created on one and used on the others.
// Ending it through one ends it on all.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startCluster, type Cluster } from '../helpers/cluster.ts';
import { connectMcp, type ConnectedClient } from '../helpers/mcp-client.ts';
import { scaleOutSkip } from './support.ts';

const skip = scaleOutSkip();

describe('scale-out: a 2025-11-25 session is served by any instance', { skip }, () => {
  let c: Cluster;
  let mcp: ConnectedClient | undefined;
  before(async () => {
    c = await startCluster({ instances: 3, signed: true, env: { AUTH_CLIENTS: 'noc-agent:auditor:cucm' } });
  });
  after(async () => {
    await mcp?.close().catch(() => undefined);
    await c?.close();
  });

  it('initialize, listings and tool calls succeed while the requests rotate over the three instances', async () => {
    c.balancer.reset();
    const s = await connectMcp(c.kernel, c.token('noc-agent'));
    mcp = s;
    assert.equal(s.transport.protocolVersion, '2025-11-25');
    const sid = s.transport.sessionId;
    assert.ok(sid, 'the server gave the session an id');
    for (let i = 0; i < 4; i++) {
      const tools = await s.client.listTools();
      assert.ok(tools.tools.some((t) => t.name === 'infra_health'));
      const r = await s.call('infra_health');
      assert.equal(r.isError, undefined, JSON.stringify(r.structuredContent));
    }
    const mine = c.balancer.log.filter((e) => e.session === sid);
    const served = new Set(mine.map((e) => e.backend));
    console.log(
      `session requests per instance: ${[0, 1, 2].map((i) => mine.filter((e) => e.backend === i).length).join('/')}`,
    );
    assert.equal(served.size, 3, `the session's requests reached instances ${[...served].join(', ')}`);
    // The POSTs (the standalone GET stream, if the client opens one, may be declined with 405).
    const failed = mine.filter((e) => e.method === 'POST' && (e.status === undefined || e.status >= 400));
    assert.deepEqual(failed, [], 'no request of the session was refused');
  });

  it('a session ended through one instance is gone on every instance', async () => {
    assert.ok(mcp);
    const sid = mcp.transport.sessionId as string;
    await mcp.transport.terminateSession();
    await mcp.client.close();
    mcp = undefined;
    for (let i = 0; i < 3; i++) {
      const k = c.direct(i);
      const res = await k.fetch(`${k.url}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${c.token('noc-agent')}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-session-id': sid,
          'mcp-protocol-version': '2025-11-25',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      await res.arrayBuffer();
      assert.equal(res.status, 404, `i${i + 1} still serves the ended session`);
    }
  });
});
