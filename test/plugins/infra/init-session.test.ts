// infra_init_session is what a session's context pays for first: the catalogue once (no input schemas,
// no second copy as text), sized for an admin holding every product.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { purposeOf } from '../../../plugins/infra/tools/init-session.ts';
import { startTestKernel, type TestKernel } from '../../helpers/kernel.ts';
import { connectMcp, startupToken, type ConnectedClient } from '../../helpers/mcp-client.ts';

interface Compact {
  client: { name: string; profile: string };
  tools: Record<string, unknown>[];
  prompts: unknown[];
  docCount: number;
  permissions: {
    profile: string;
    products: string[];
    rateLimits: object;
    allowlists: object;
    tools?: unknown;
  };
}

describe('infra_init_session, through a real MCP client', () => {
  let k: TestKernel;
  const clients: Record<string, ConnectedClient> = {};
  before(async () => {
    k = await startTestKernel({
      license: { products: ['cucm', 'imp', 'cuc'] },
      env: { AUTH_CLIENTS: 'ada:admin:cucm+imp+cuc,uma:auditor:cucm', AUTH_BCRYPT_COST: '4' },
    });
    for (const n of ['ada', 'uma']) clients[n] = await connectMcp(k, startupToken(k.stateDir, n));
  });
  after(async () => {
    for (const c of Object.values(clients)) await c.close();
    await k.stop();
  });

  const init = async (who: string) => {
    const r = await (clients[who] as ConnectedClient).call('infra_init_session');
    assert.equal(r.isError, undefined, JSON.stringify(r.content));
    return { result: r, s: r.structuredContent as unknown as Compact };
  };

  it("the admin's whole result (text and structured) stays within its per-tool budget, the catalogue in it once", async () => {
    const { result, s } = await init('ada');
    const bytes = Buffer.byteLength(JSON.stringify(result));
    // The catalogue is one line per tool, so the result grows with the product's tool table (63 tools
    // in 10.6 KB when this bound was set): 3 KB for the rest, 150 bytes a tool. A second copy of the
    // catalogue, input schemas or whole descriptions would each break it.
    assert.ok(bytes < 3 * 1024 + 150 * s.tools.length, `${bytes} bytes for ${s.tools.length} tools`);
    // The text is a summary a person can read, not the structured content again.
    assert.equal(result.content.length, 1);
    const text = result.content[0]?.text ?? '';
    assert.ok(text.length < 600, text);
    assert.ok(text.split('\n').length <= 4, text);
    assert.throws(() => JSON.parse(text) as unknown);
    assert.match(text, /client ada, profile admin/);
    assert.ok(!text.includes('cucm_get_version'), 'no tool list in the text');
    assert.equal(s.client.name, 'ada');
    assert.equal(s.permissions.profile, 'admin');
    assert.ok(s.tools.length >= 40, String(s.tools.length));
    assert.ok(s.docCount > 0);
    assert.ok(s.prompts.every((p) => typeof p === 'string'));
  });

  it('each tool is a name, a one-line purpose and its permitted state, nothing of its schema', async () => {
    const { s } = await init('ada');
    const listed = new Map(
      (await (clients.ada as ConnectedClient).client.listTools()).tools.map((t) => [t.name, t]),
    );
    for (const t of s.tools) {
      assert.deepEqual(Object.keys(t).sort(), ['name', 'permitted', 'purpose'], JSON.stringify(t));
      const purpose = t.purpose as string;
      assert.ok(purpose.length > 0 && purpose.length <= 100 && !purpose.includes('\n'), purpose);
      const full = listed.get(t.name as string);
      if (full)
        assert.ok(full.description?.replace(/\s+/g, ' ').startsWith(purpose.replace(/…$/, '')), purpose);
    }
  });

  it('a cucm-only auditor: permitted follows its matrix, the matrix without a second tool list', async () => {
    const { s } = await init('uma');
    const mine = (await (clients.uma as ConnectedClient).call('infra_get_my_permissions'))
      .structuredContent as {
      tools: { allowed: string[]; denied: string[] };
    };
    const permitted = s.tools.filter((t) => t.permitted).map((t) => t.name as string);
    const denied = s.tools.filter((t) => !t.permitted).map((t) => t.name as string);
    assert.deepEqual(
      permitted.sort(),
      mine.tools.allowed.filter((n) => s.tools.some((t) => t.name === n)).sort(),
    );
    assert.ok(denied.every((n) => mine.tools.denied.includes(n)));
    assert.ok(!permitted.some((n) => n.startsWith('imp_') || n.startsWith('cuc_')));
    assert.deepEqual(s.permissions.products, ['cucm']);
    assert.ok(s.permissions.rateLimits && s.permissions.allowlists);
    assert.equal(s.permissions.tools, undefined);
  });

  it('a session that never calls it still works', async () => {
    const c = await connectMcp(k, startupToken(k.stateDir, 'uma'));
    try {
      const r = await c.call('infra_list_available_products');
      assert.equal(r.isError, undefined);
      assert.deepEqual((r.structuredContent as { available: string[] }).available, ['cucm']);
    } finally {
      await c.close();
    }
  });

  it('purposeOf: the first sentence, on one line, bounded', () => {
    assert.equal(purposeOf('Reads a report.  Then more.'), 'Reads a report.');
    assert.equal(purposeOf('Lists v1.2 items\nacross lines. Rest.'), 'Lists v1.2 items across lines.');
    assert.equal(purposeOf('No full stop'), 'No full stop');
    const long = purposeOf(`${'word '.repeat(60)}end.`);
    assert.ok(long.length <= 100 && long.endsWith('…'), long);
  });
});
