// Two in-process kernels sharing one state directory and one real redis-server (STATE_BACKEND), as two
// instances behind a balancer: a 2025-11-25 session (SDK v1 client) whose POSTs alternate between them
// is opened on one and served by the other; another client cannot use it; a DELETE through either ends
// it on both; a tool's elicitation, sent on the tool call's stream by one instance, is answered by a POST
// that lands on the other; a 2026-07-28 multi-round call's sealed state opens on the other instance; a
// preview plan made on one is applied through the other, and applied on both at once only once.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernTransport,
  type FetchLike as ModernFetch,
} from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { KernelError } from '../../../kernel/errors/index.ts';
import { startTestKernel, type TestKernel } from '../../helpers/kernel.ts';
import { startupToken } from '../../helpers/mcp-client.ts';
import { redisAvailable, startRedis, type RedisHandle } from '../../helpers/redis-server.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';
import { FIXTURE_PLUGINS } from '../../conformance/runner/server-under-test.ts';

const skip = redisAvailable();
if (skip) console.log(`# skipping the shared session tests: ${skip}`);

const PROFILE = {
  name: 'conformance',
  description: 'The fixture tools.',
  products: ['cucm', 'imp', 'cuc'],
  tools: { allow: ['test_*'], deny: [] },
  allowlists: {},
  rateLimits: { test: { default: { limit: 1200, windowSeconds: 60 } } },
};

/** Where each request went: the instance (0 or 1), the method, and the JSON-RPC body. */
interface Routed {
  to: number;
  method: string;
  body: Record<string, unknown> | undefined;
  status: number;
}

describe('MCP sessions, request states and plans across two instances', { skip, timeout: 180_000 }, () => {
  let redis: RedisHandle;
  const state = tempStateDir('ucmcp-shared-sessions-');
  const k: TestKernel[] = [];
  const log: Routed[] = [];
  let next = 0;

  /**
   * A balancer in the client: each POST and DELETE goes to the other instance than the one before
   * (no stickiness); the GET event stream stays on the first.
   */
  /** An instance's own address (its `url` is the shared public one, as a balancer's would be). */
  const direct = (i: number) => `https://127.0.0.1:${(k[i] as TestKernel).kernel.port}`;

  const alternating: FetchLike = async (input, init) => {
    const url = new URL(String(input instanceof Request ? input.url : input));
    const method = (init?.method ?? 'GET').toUpperCase();
    const to = method === 'GET' ? 0 : next++ % 2;
    const target = k[to] as TestKernel;
    const res = (await target.fetch(
      `${direct(to)}${url.pathname}${url.search}`,
      init as Parameters<TestKernel['fetch']>[1],
    )) as unknown as Response;
    let body: Record<string, unknown> | undefined;
    try {
      body = typeof init?.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : undefined;
    } catch {
      body = undefined;
    }
    log.push({ to, method, body, status: res.status });
    return res;
  };

  before(async () => {
    redis = await startRedis();
    mkdirSync(join(state.dir, 'profiles'), { recursive: true });
    writeFileSync(join(state.dir, 'profiles', 'conformance.json'), JSON.stringify(PROFILE));
    for (const id of ['t1', 't2']) {
      k.push(
        await startTestKernel({
          stateDir: state.dir,
          extraPluginDirs: [FIXTURE_PLUGINS],
          license: { products: ['cucm', 'imp', 'cuc'] },
          env: {
            AUTH_CLIENTS: 'conformance:conformance:cucm+imp+cuc,other:conformance:cucm',
            AUTH_BCRYPT_COST: '4',
            STATE_BACKEND: redis.url,
            INSTANCE_ID: id,
            // One issuer for both, as behind a balancer: a token either instance issued is good on both.
            PUBLIC_BASE_URL: 'https://127.0.0.1:9443',
          },
        }),
      );
    }
  });
  after(async () => {
    for (const x of k) await x.stop().catch(() => undefined);
    await redis?.cleanup();
    state.cleanup();
  });

  const token = (client = 'conformance') => startupToken(state.dir, client);

  async function legacyClient(answer?: { action: 'accept'; content: Record<string, unknown> }) {
    const transport = new StreamableHTTPClientTransport(new URL(`${direct(0)}/mcp`), {
      fetch: alternating,
      requestInit: { headers: { Authorization: `Bearer ${token()}` } },
    });
    const client = new Client(
      { name: 'two-instance-client', version: '1.0.0' },
      answer ? { capabilities: { elicitation: { form: {} } } } : {},
    );
    if (answer) client.setRequestHandler(ElicitRequestSchema, () => Promise.resolve(answer));
    await client.connect(transport);
    return { client, transport };
  }

  const rawPost = (i: number, sid: string, who: string) =>
    (k[i] as TestKernel).fetch(`${direct(i)}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token(who)}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': sid,
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' }),
    });

  it('initialize on one instance, listings and tool calls on the other; another client is refused 404', async () => {
    const from = log.length;
    const { client, transport } = await legacyClient();
    const sid = transport.sessionId as string;
    assert.ok(sid);
    assert.equal(transport.protocolVersion, '2025-11-25');
    for (let i = 0; i < 3; i++) {
      const { tools } = await client.listTools();
      assert.ok(tools.some((t) => t.name === 'test_simple_text'));
      const r = (await client.callTool({ name: 'test_simple_text', arguments: {} })) as { isError?: boolean };
      assert.notEqual(r.isError, true);
    }
    const posts = log.slice(from).filter((e) => e.method === 'POST');
    const init = posts.find((e) => e.body?.method === 'initialize') as Routed;
    const calls = posts.filter((e) => e.body?.method === 'tools/call' || e.body?.method === 'tools/list');
    assert.ok(
      calls.some((e) => e.to !== init.to),
      'a request went to the instance that did not initialize',
    );
    assert.deepEqual(
      posts.filter((e) => e.status >= 400).map((e) => `${String(e.body?.method)} ${e.status}`),
      [],
    );
    // Bound to its client on both instances, and an unknown id is unknown on both.
    for (const i of [0, 1]) {
      assert.equal((await rawPost(i, sid, 'other')).status, 404);
      assert.equal((await rawPost(i, '8a6f1f83-0000-4000-8000-000000000000', 'conformance')).status, 404);
    }
    // Ended through one instance (the next in turn), it is gone on both.
    await transport.terminateSession();
    await client.close();
    for (const i of [0, 1]) assert.equal((await rawPost(i, sid, 'conformance')).status, 404, `t${i + 1}`);
  });

  it('an elicitation sent inside a tool call by one instance is answered through the other', async () => {
    const from = log.length;
    const { client, transport } = await legacyClient({
      action: 'accept',
      content: { username: 'ada', email: 'ada@example.com' },
    });
    try {
      for (let round = 0; round < 2; round++) {
        // One more request in between: the second call runs on the other instance than the first.
        if (round === 1) await client.listTools();
        const r = (await client.callTool({
          name: 'test_elicitation',
          arguments: { message: 'Who are you?' },
        })) as { isError?: boolean; content: { text?: string }[] };
        assert.notEqual(r.isError, true, JSON.stringify(r));
        assert.match(String(r.content[0]?.text), /action=accept.*ada@example\.com/);
      }
      const posts = log.slice(from).filter((e) => e.method === 'POST');
      const calls = posts.filter((e) => e.body?.method === 'tools/call');
      const answers = posts.filter((e) => e.body && e.body.method === undefined && 'result' in e.body);
      assert.equal(answers.length, 2, JSON.stringify(posts.map((p) => p.body)));
      assert.ok(
        calls.some((c, i) => (answers[i] as Routed).to !== c.to),
        'an answer landed on the other instance than its tool call',
      );
      assert.ok(answers.every((a) => a.status === 202));
      // Both instances asked: the one that built its copy from the record knows the client can answer.
      assert.deepEqual(new Set(calls.map((c) => c.to)), new Set([0, 1]));
      assert.ok(
        calls.every((c, i) => (answers[i] as Routed).to !== c.to),
        'every answer landed on the other instance than its tool call',
      );
    } finally {
      await transport.terminateSession().catch(() => undefined);
      await client.close();
    }
  });

  it('2026-07-28: a multi-round call whose rounds land on different instances (the sealed state opens on both)', async () => {
    const transport = new ModernTransport(new URL(`${direct(0)}/mcp`), {
      fetch: alternating as unknown as ModernFetch,
      authProvider: { token: () => Promise.resolve(token()) },
    });
    const client = new ModernClient(
      { name: 'two-instance-modern', version: '2.0.0' },
      { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    client.setRequestHandler('elicitation/create', () =>
      Promise.resolve({ action: 'accept' as const, content: { ok: true } }),
    );
    await client.connect(transport);
    try {
      for (let i = 0; i < 2; i++) {
        const r = (await client.callTool({
          name: 'test_input_required_result_request_state',
          arguments: {},
        })) as { isError?: boolean; content: { text?: string }[] };
        assert.notEqual(r.isError, true, JSON.stringify(r));
        assert.equal(r.content[0]?.text, 'state-ok: confirmed=true');
      }
    } finally {
      await client.close();
    }
  });

  /** A raw initialize through instance `i`; the new session's id. */
  async function initialize(i: number): Promise<string> {
    const res = await (k[i] as TestKernel).fetch(`${direct(i)}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token()}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'raw', version: '1' },
        },
      }),
    });
    await res.arrayBuffer();
    assert.equal(res.status, 200);
    return res.headers.get('mcp-session-id') as string;
  }

  it("the per-client session limit counts the client's sessions on both instances", async () => {
    const first = await initialize(0);
    await new Promise((r) => setTimeout(r, 5));
    // 32 per client: 32 more, alternating, make the first the least recently used, closed for room.
    for (let i = 0; i < 32; i++) await initialize(1 - (i % 2));
    for (const i of [0, 1]) assert.equal((await rawPost(i, first, 'conformance')).status, 404, `t${i + 1}`);
  });

  it('a preview plan made on one instance is applied through the other; applied on both at once, once', async () => {
    const [a, b] = k.map((x) => x.kernel.mcp.plans) as [
      TestKernel['kernel']['mcp']['plans'],
      TestKernel['kernel']['mcp']['plans'],
    ];
    const binding = { client: 'conformance', tool: 'cucm_axl_call', argsDigest: 'a', beforeDigest: 'b' };
    const plan = await a.issue(binding);
    assert.equal((await b.consume(plan.id, binding)).id, plan.id);
    await assert.rejects(a.consume(plan.id, binding), { code: 'PLAN_USED' });
    for (let i = 0; i < 10; i++) {
      const p = await (i % 2 ? a : b).issue(binding);
      const outcomes = await Promise.allSettled([a.consume(p.id, binding), b.consume(p.id, binding)]);
      const codes = outcomes.map((o) => (o.status === 'fulfilled' ? 'OK' : (o.reason as KernelError).code));
      assert.deepEqual(codes.sort(), ['OK', 'PLAN_USED'], `round ${i}`);
    }
  });

  it('with the store down, a session another instance opened is refused 503 (never served from a guess)', async () => {
    const sid = await initialize(0);
    await redis.stop();
    try {
      const res = await rawPost(1, sid, 'conformance');
      await res.arrayBuffer();
      assert.equal(res.status, 503);
    } finally {
      await redis.start();
    }
  });
});
