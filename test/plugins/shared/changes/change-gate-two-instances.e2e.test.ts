// The change gate with two instances sharing one state directory and one real redis-server, against the
// lab: a destructive change confirmed by the person in a 2025-11-25 client whose POSTs alternate between
// the instances (the confirmation, a new POST, lands on the instance that did not send the question), and
// a preview plan made through one instance applied through the other; applied through both at once, the
// change is sent once.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { startTestKernel, type TestKernel } from '../../../helpers/kernel.ts';
import { connectMcp, startupToken } from '../../../helpers/mcp-client.ts';
import { ROLES, startProductStack, type ProductStack } from '../../../helpers/product-stack.ts';
import { redisAvailable, startRedis, type RedisHandle } from '../../../helpers/redis-server.ts';
import { freePort } from '../../../helpers/server-process.ts';

const skip = redisAvailable();
if (skip) console.log(`# skipping the two-instance change gate tests: ${skip}`);

type CallResult = { isError?: boolean; structuredContent?: Record<string, unknown> };

describe('the change gate across two instances', { skip, timeout: 300_000 }, () => {
  let redis: RedisHandle;
  let s: ProductStack;
  let k2: TestKernel;
  const urls: string[] = [];
  before(async () => {
    redis = await startRedis();
    const port = await freePort();
    // One issuer for both (as behind a balancer): the first instance's own address.
    const shared = {
      STATE_BACKEND: redis.url,
      PUBLIC_BASE_URL: `https://127.0.0.1:${port}`,
    };
    s = await startProductStack({
      lab: { scale: 'site' },
      prepare: ['cucm'],
      env: { ...shared, INSTANCE_ID: 't1', SERVER_PORT: String(port) },
    });
    // The second instance starts on what the first made (keys, clients, vault), as a rolling start does.
    k2 = await startTestKernel({
      stateDir: s.k.stateDir,
      license: { products: ['cucm', 'imp', 'cuc'] },
      env: {
        AUTH_CLIENTS: [...ROLES.map((r) => `${r}1:${r}:cucm+imp+cuc`), 'scoped1:admin:cuc'].join(','),
        AUTH_BCRYPT_COST: '4',
        ...shared,
        INSTANCE_ID: 't2',
      },
    });
    urls.push(`https://127.0.0.1:${s.k.kernel.port}`, `https://127.0.0.1:${k2.kernel.port}`);
  });
  after(async () => {
    await k2?.stop().catch(() => undefined);
    await s?.stop();
    await redis?.cleanup();
  });

  const phoneArgs = (name: string) => ({
    phone: { name, product: 'Cisco 8865', class: 'Phone', protocol: 'SIP', devicePoolName: 'Default' },
  });
  const writesSince = (from: number) => s.lab.state.log.writes.slice(from);
  const token = () => startupToken(s.k.stateDir, 'admin1');

  it('2025-11-25: the confirmation asked by one instance is answered through the other; the change is sent once', async () => {
    const host = s.node('cucm').name;
    const name = 'SEP00C1A5500401';
    await s.ok('admin', 'cucm_axl_call', { host, operation: 'addPhone', args: phoneArgs(name) });
    const routed: { to: number; body: Record<string, unknown> | undefined }[] = [];
    let next = 0;
    const alternating: FetchLike = async (input, init) => {
      const url = new URL(String(input instanceof Request ? input.url : input));
      const method = (init?.method ?? 'GET').toUpperCase();
      const to = method === 'GET' ? 0 : next++ % 2;
      const body =
        typeof init?.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : undefined;
      routed.push({ to, body });
      return (await s.k.fetch(
        `${urls[to]}${url.pathname}${url.search}`,
        init as Parameters<TestKernel['fetch']>[1],
      )) as unknown as Response;
    };
    const transport = new StreamableHTTPClientTransport(new URL(`${urls[0]}/mcp`), {
      fetch: alternating,
      requestInit: { headers: { Authorization: `Bearer ${token()}` } },
    });
    const client = new Client(
      { name: 'two-instance-confirmer', version: '1.0.0' },
      { capabilities: { elicitation: { form: {} } } },
    );
    const asked: unknown[] = [];
    client.setRequestHandler(ElicitRequestSchema, (req) => {
      asked.push(req.params);
      return Promise.resolve({ action: 'accept' as const, content: { confirm: true } });
    });
    await client.connect(transport);
    // initialize and its notification went to t1 and t2: this listing goes to t1, so the call runs on
    // t2, whose copy of the session was built from the record (it must know the client can answer forms).
    await client.listTools();
    const from = s.lab.state.log.writes.length;
    let done: CallResult;
    try {
      const mark = routed.length;
      done = (await client.callTool({
        name: 'cucm_axl_call',
        arguments: { host, operation: 'removePhone', args: { name } },
      })) as CallResult;
      const call = routed.slice(mark).find((r) => r.body?.method === 'tools/call');
      const answer = routed
        .slice(mark)
        .find((r) => r.body && r.body.method === undefined && 'result' in r.body);
      assert.ok(call && answer, JSON.stringify(routed.slice(mark)));
      assert.notEqual(answer.to, call.to, 'the confirmation landed on the other instance');
      assert.equal(call.to, 1, 'the call ran on the instance that did not see initialize');
    } finally {
      await transport.terminateSession().catch(() => undefined);
      await client.close();
    }
    assert.equal(done.isError, undefined, JSON.stringify(done.structuredContent));
    assert.equal((done.structuredContent?.confirmed_by as { how: string }).how, 'elicitation');
    assert.equal(asked.length, 1);
    assert.deepEqual(
      writesSince(from).map((w) => w.operation),
      ['removePhone'],
    );
  });

  it('a plan previewed through one instance is applied through the other; applied through both at once, once', async () => {
    const host = s.node('cucm').name;
    const on2 = await connectMcp(
      { url: urls[1] as string, fetch: s.k.fetch },
      startupToken(s.k.stateDir, 'operator1'),
    );
    try {
      const name = 'SEP00C1A5500402';
      const add = { host, operation: 'addPhone', args: phoneArgs(name) };
      const planned = await s.plan('operator', 'cucm_axl_call', add);
      const added = (await on2.call('cucm_axl_call', planned)) as CallResult;
      assert.equal(added.isError, undefined, JSON.stringify(added.structuredContent));

      const update = { host, operation: 'updatePhone', args: { name, description: 'once' } };
      const twice = await s.plan('operator', 'cucm_axl_call', update);
      const from = s.lab.state.log.writes.length;
      const results = (await Promise.all([
        s.mcp.operator.call('cucm_axl_call', twice),
        on2.call('cucm_axl_call', twice),
      ])) as CallResult[];
      const codes = results.map((r) => (r.isError ? String(r.structuredContent?.error) : 'OK')).sort();
      assert.deepEqual(codes, ['OK', 'PLAN_USED']);
      assert.deepEqual(
        writesSince(from).map((w) => w.operation),
        ['updatePhone'],
      );
    } finally {
      await on2.close();
    }
  });
});
