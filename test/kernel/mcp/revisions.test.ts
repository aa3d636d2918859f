import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { PROJECT_ROOT } from '../../../kernel/paths.ts';
import { startTestKernel, type TestKernel } from '../../helpers/kernel.ts';
import { connectMcp, startupToken } from '../../helpers/mcp-client.ts';
import { connectModern } from '../../helpers/mcp-client-v2.ts';
import { seedServerKeys } from '../../helpers/keys.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';

const MODERN = '2026-07-28';
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** Both revisions, one shape: what a test needs of a connected client. */
interface AnyClient {
  revision: string;
  listTools(): Promise<string[]>;
  call(
    name: string,
    args?: Record<string, unknown>,
  ): Promise<{ isError?: boolean; structuredContent?: unknown }>;
  firstResourceText(): Promise<string>;
  firstPromptText(): Promise<string>;
  close(): Promise<void>;
}

/** What both SDKs' clients offer under the same names: the test drives either through it. */
interface SdkClient {
  listTools(): Promise<{ tools: { name: string }[] }>;
  callTool(p: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  listResources(): Promise<{ resources: { uri: string }[] }>;
  readResource(p: { uri: string }): Promise<{ contents: unknown[] }>;
  listPrompts(): Promise<{ prompts: { name: string; arguments?: { name: string; required?: boolean }[] }[] }>;
  getPrompt(p: { name: string; arguments: Record<string, string> }): Promise<{ messages: unknown[] }>;
}

function anyClient(client: SdkClient, revision: string, close: () => Promise<void>): AnyClient {
  return {
    revision,
    listTools: async () => (await client.listTools()).tools.map((t) => t.name),
    call: async (name, args = {}) =>
      (await client.callTool({ name, arguments: args })) as Awaited<ReturnType<AnyClient['call']>>,
    firstResourceText: async () => {
      const [r] = (await client.listResources()).resources;
      assert.ok(r, 'the licensed products list documents');
      const read = await client.readResource({ uri: r.uri });
      return String((read.contents[0] as { text?: string }).text);
    },
    firstPromptText: async () => {
      const [p] = (await client.listPrompts()).prompts;
      assert.ok(p, 'the licensed products list prompts');
      const got = await client.getPrompt({ name: p.name, arguments: promptArgs(p.arguments) });
      return JSON.stringify(got.messages);
    },
    close,
  };
}

async function legacyClient(k: TestKernel, token: string): Promise<AnyClient> {
  const c = await connectMcp(k, token);
  return anyClient(c.client as unknown as SdkClient, c.transport.protocolVersion ?? '', () => c.close());
}

async function modernClient(k: TestKernel, token: string): Promise<AnyClient> {
  const c = await connectModern(k, token);
  return anyClient(c.client as unknown as SdkClient, c.client.getNegotiatedProtocolVersion() ?? '', () =>
    c.close(),
  );
}

/** A value for every argument a prompt requires (the audit prompts require only a node name). */
const promptArgs = (args: { name: string; required?: boolean }[] = []) =>
  Object.fromEntries(args.filter((a) => a.required).map((a) => [a.name, 'cucm-pub']));

/** The shipped auditor with one infra tool denied and a tight infra rate limit. */
function writeNarrowProfile(stateDir: string): void {
  const base = JSON.parse(
    readFileSync(join(PROJECT_ROOT, 'profiles/_default/auditor.json'), 'utf8'),
  ) as Record<string, unknown>;
  mkdirSync(join(stateDir, 'profiles'), { recursive: true });
  writeFileSync(
    join(stateDir, 'profiles', 'narrow.json'),
    JSON.stringify({
      ...base,
      name: 'narrow',
      tools: { allow: ['infra_*', 'common_read_report'], deny: ['infra_get_my_permissions'] },
      rateLimits: { infra: { default: { limit: 4, windowSeconds: 60 } } },
    }),
  );
}

describe('both MCP revisions on one endpoint, one gate', () => {
  const state = tempStateDir();
  let k: TestKernel;
  before(async () => {
    seedServerKeys(state.dir);
    writeNarrowProfile(state.dir);
    k = await startTestKernel({
      stateDir: state.dir,
      seedKeys: false,
      license: { products: ['cucm', 'imp', 'cuc'], expiresInDays: 30 },
      env: {
        AUTH_CLIENTS: 'ada:admin:cucm+imp+cuc,nora:narrow:cucm,nick:narrow:cucm',
        AUTH_BCRYPT_COST: '4',
      },
    });
  });
  after(async () => {
    await k.stop();
    state.cleanup();
  });

  const post = (body: unknown, headers: Record<string, string> = {}) =>
    k.fetch(`${k.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${startupToken(k.stateDir, 'ada')}`,
        ...headers,
      },
      body: JSON.stringify(body),
    });

  for (const [label, connect, revision] of [
    ['SDK v1 client, 2025-11-25 session', legacyClient, '2025-11-25'],
    ['SDK v2 client, 2026-07-28 stateless', modernClient, MODERN],
  ] as const) {
    it(`${label}: lists and calls tools, reads a resource, gets a prompt`, async () => {
      const c = await connect(k, startupToken(k.stateDir, 'ada'));
      try {
        assert.equal(c.revision, revision);
        const names = await c.listTools();
        assert.ok(names.includes('infra_init_session') && names.includes('common_write_report'));
        const init = await c.call('infra_init_session');
        assert.equal(init.isError, undefined);
        assert.equal((init.structuredContent as { client: { name: string } }).client.name, 'ada');
        assert.ok((await c.firstResourceText()).length > 50, 'a resource with content');
        assert.ok((await c.firstPromptText()).length > 20, 'a prompt with messages');
        const rec = k
          .auditRecords()
          .filter((r) => r.event === 'ACTIONS' && r.tool_name === 'infra_init_session')
          .at(-1);
        assert.equal(rec?.client, 'ada');
        assert.equal(rec?.result, 'ALLOWED');
      } finally {
        await c.close();
      }
    });

    it(`${label}: the same gate refuses and audits (RBAC denial, then the rate limit as 429)`, async () => {
      const who = revision === MODERN ? 'nick' : 'nora';
      const c = await connect(k, startupToken(k.stateDir, who));
      try {
        const denied = await c.call('infra_get_my_permissions');
        assert.equal(denied.isError, true);
        assert.equal((denied.structuredContent as { error: string }).error, 'ProfilePermissionError');
        const deniedRec = k
          .auditRecords()
          .filter(
            (r) => r.event === 'ACTIONS' && r.client === who && r.tool_name === 'infra_get_my_permissions',
          )
          .at(-1);
        assert.equal(deniedRec?.result, 'DENIED');
        let refusal: unknown = null;
        for (let i = 0; i < 8 && refusal === null; i++) {
          refusal = await c.call('infra_health').then(
            () => null,
            (err: unknown) => err,
          );
        }
        assert.match(String(refusal), /429|RATE_LIMITED/);
        const limited = k
          .auditRecords()
          .filter((r) => r.event === 'RATE_LIMITED' && r.client === who)
          .at(-1);
        assert.equal(limited?.limit, 4);
      } finally {
        await c.close();
      }
    });
  }

  it('2026-07-28 lists are cacheable (ttlMs, private) and carry no session', async () => {
    const res = await post(
      { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: ENVELOPE } },
      { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/list' },
    );
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('mcp-session-id'), null);
    const body = (await res.json()) as { result: { tools: unknown[]; ttlMs: number; cacheScope: string } };
    assert.ok(body.result.tools.length > 10);
    assert.equal(body.result.ttlMs, 60_000);
    assert.equal(body.result.cacheScope, 'private');
  });

  it('2026-07-28: an Mcp-Method header that disagrees with the body is refused before anything runs', async () => {
    const before = k.auditRecords().filter((r) => r.event === 'ACTIONS').length;
    const res = await post(
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'infra_health', arguments: {}, _meta: ENVELOPE },
      },
      { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/list', 'mcp-name': 'infra_health' },
    );
    assert.equal(res.status, 400);
    const body = (await res.json()) as { error: { code: number; message: string } };
    assert.equal(body.error.code, -32020);
    assert.match(body.error.message, /Mcp-Method/);
    assert.equal(k.auditRecords().filter((r) => r.event === 'ACTIONS').length, before, 'no tool ran');
  });

  it('2026-07-28: malformed params are -32602 with a one-line reason, as on 2025-11-25', async () => {
    for (const [method, params, name] of [
      ['prompts/get', { name: 5 }, undefined],
      ['tools/call', { name: 'infra_health', arguments: 'x' }, 'infra_health'],
      ['resources/read', { uri: ['x'] }, undefined],
    ] as const) {
      const res = await post(
        { jsonrpc: '2.0', id: 9, method, params: { ...params, _meta: ENVELOPE } },
        { 'mcp-protocol-version': MODERN, 'mcp-method': method, ...(name ? { 'mcp-name': name } : {}) },
      );
      const body = (await res.json()) as { error?: { code: number; message: string } };
      assert.equal(body.error?.code, -32602, `${method}: ${JSON.stringify(body)}`);
      assert.ok(!body.error.message.includes('\n'), `${method}: one line: ${body.error.message}`);
    }
  });

  it('2026-07-28: a missing Mcp-Method header and a wrong token are refused', async () => {
    const missing = await post(
      { jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: ENVELOPE } },
      { 'mcp-protocol-version': MODERN },
    );
    assert.equal(missing.status, 400);
    const noAuth = await post(
      { jsonrpc: '2.0', id: 4, method: 'tools/list', params: { _meta: ENVELOPE } },
      { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/list', authorization: 'Bearer nope' },
    );
    assert.equal(noAuth.status, 401);
    assert.match(noAuth.headers.get('www-authenticate') ?? '', /resource_metadata=/);
  });

  it('2026-07-28: a subscriptions/listen stream hears tools/list_changed when the catalogue changes', async () => {
    const c = await connectModern(k, startupToken(k.stateDir, 'ada'));
    try {
      let heard = 0;
      c.client.setNotificationHandler('notifications/tools/list_changed', () => {
        heard++;
      });
      const sub = await c.client.listen({ toolsListChanged: true });
      k.kernel.mcp.registry.unregister('common', 'test: a bundle leaves');
      for (let i = 0; i < 100 && heard === 0; i++) await new Promise((r) => setTimeout(r, 20));
      assert.ok(heard > 0, 'the listener heard the change');
      const names = (await c.client.listTools(undefined, { cacheMode: 'bypass' })).tools.map((t) => t.name);
      assert.ok(!names.includes('common_write_report'), 'the new list lacks the bundle that left');
      await sub.close();
    } finally {
      await c.close();
    }
  });
});
