import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestKernel, type TestKernel } from '../../helpers/kernel.ts';
import { connectMcp, startupToken } from '../../helpers/mcp-client.ts';

const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

describe('/mcp sessions', () => {
  let k: TestKernel;
  before(async () => {
    k = await startTestKernel({
      env: { AUTH_CLIENTS: 'alice:admin:cucm+imp+cuc,bob:auditor:cucm', AUTH_BCRYPT_COST: '4' },
    });
  });
  after(async () => {
    await k.stop();
  });

  const post = (token: string | null, body: unknown, headers: Record<string, string> = {}) =>
    k.fetch(`${k.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...headers,
      },
      body: JSON.stringify(body),
    });

  it('a real SDK client initialises on protocol 2025-11-25 and lists the infra and common tools', async () => {
    const c = await connectMcp(k, startupToken(k.stateDir, 'alice'));
    try {
      assert.equal(c.transport.protocolVersion, '2025-11-25');
      const { tools } = await c.client.listTools();
      const names = tools.map((t) => t.name);
      for (const n of [
        'infra_init_session',
        'infra_health',
        'infra_get_my_permissions',
        'common_write_report',
      ])
        assert.ok(names.includes(n), n);
      assert.ok(!names.some((n) => n.startsWith('cucm_')), 'no product tools without a license');
      const init = await c.call('infra_init_session');
      assert.equal(init.isError, undefined);
      const s = init.structuredContent as {
        client: { name: string; profile: string };
        tools: unknown[];
        permissions: { profile: string };
      };
      assert.equal(s.client.name, 'alice');
      assert.equal(s.permissions.profile, 'admin');
      assert.ok(s.tools.length >= 13);
      const rec = k
        .auditRecords()
        .filter((r) => r.event === 'ACTIONS' && r.tool_name === 'infra_init_session')
        .at(-1);
      assert.equal(rec?.result, 'ALLOWED');
      assert.equal(rec?.status, 'ALLOWED');
      assert.equal(rec?.client, 'alice');
      assert.equal(rec?.product, 'infra');
      assert.equal(rec?.ip, '127.0.0.1');
      assert.ok(typeof rec?.exec_time_ms === 'number' && rec.exec_time_ms >= 0);
    } finally {
      await c.close();
    }
  });

  it('works on /mcp/ too', async () => {
    const c = await connectMcp(k, startupToken(k.stateDir, 'bob'), '/mcp/');
    const r = await c.call('infra_health');
    assert.equal((r.structuredContent as { server: string }).server, 'uc-mcp-server');
    await c.close();
  });

  it('no token: 401 with WWW-Authenticate pointing at the protected-resource metadata', async () => {
    const res = await post(null, INIT);
    assert.equal(res.status, 401);
    assert.match(
      res.headers.get('www-authenticate') ?? '',
      /resource_metadata="[^"]*\/\.well-known\/oauth-protected-resource\/mcp"/,
    );
    await res.arrayBuffer();
  });

  it("a session is bound to its client: another client's token with its id is refused like an unknown session", async () => {
    const alice = await connectMcp(k, startupToken(k.stateDir, 'alice'));
    const sid = alice.transport.sessionId as string;
    const res = await post(
      startupToken(k.stateDir, 'bob'),
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' },
    );
    assert.equal(res.status, 404);
    assert.equal(((await res.json()) as { error: { message: string } }).error.message, 'Session not found');
    const rec = k.auditRecords().find((r) => r.reason === 'mcp_session_of_another_client');
    assert.equal(rec?.client, 'bob');
    // Alice's session still works.
    assert.equal((await alice.call('infra_health')).isError, undefined);
    await alice.close();
  });

  it('unknown session 404, missing session 400, DELETE ends the session', async () => {
    const token = startupToken(k.stateDir, 'alice');
    const unknown = await post(
      token,
      { jsonrpc: '2.0', id: 3, method: 'tools/list' },
      { 'mcp-session-id': 'no-such-session' },
    );
    assert.equal(unknown.status, 404);
    await unknown.arrayBuffer();
    const missing = await post(token, { jsonrpc: '2.0', id: 4, method: 'tools/list' });
    assert.equal(missing.status, 400);
    await missing.arrayBuffer();
    const getMissing = await k.fetch(`${k.url}/mcp`, {
      headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
    });
    assert.equal(getMissing.status, 400);
    await getMissing.arrayBuffer();

    const c = await connectMcp(k, token);
    const sid = c.transport.sessionId as string;
    await c.transport.terminateSession();
    const after = await post(
      token,
      { jsonrpc: '2.0', id: 5, method: 'tools/list' },
      { 'mcp-session-id': sid },
    );
    assert.equal(after.status, 404);
    await after.arrayBuffer();
    await c.client.close();
  });
});
