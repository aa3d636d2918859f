import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestKernel, type TestKernel } from '../../helpers/kernel.ts';
import { connectMcp, startupToken } from '../../helpers/mcp-client.ts';
import { connectModern } from '../../helpers/mcp-client-v2.ts';

const MODERN = '2026-07-28';
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

type Listed = { name: string; annotations?: { readOnlyHint?: boolean } };
const CREDENTIAL = /_(store|update|delete|list)_credentials$|_trust_fingerprint$/;

describe('toolsets and read-only mode narrow tools/list and tools/call', () => {
  let k: TestKernel;
  before(async () => {
    k = await startTestKernel({
      license: { products: ['cucm', 'imp', 'cuc'], expiresInDays: 30 },
      env: { AUTH_CLIENTS: 'ada:admin:cucm+imp+cuc,aud:auditor:cucm', AUTH_BCRYPT_COST: '4' },
    });
  });
  after(async () => {
    await k.stop();
  });

  const both = async (who: string, path: string): Promise<Listed[][]> => {
    const a = await connectMcp(k, startupToken(k.stateDir, who), path);
    const b = await connectModern(k, startupToken(k.stateDir, who), { path });
    try {
      return [
        (await a.client.listTools()).tools,
        (await b.client.listTools(undefined, { cacheMode: 'bypass' })).tools,
      ];
    } finally {
      await a.close();
      await b.close();
    }
  };

  const rawList = (who: string, path: string, headers: Record<string, string> = {}) =>
    k.fetch(`${k.url}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${startupToken(k.stateDir, who)}`,
        'mcp-protocol-version': MODERN,
        'mcp-method': 'tools/list',
        ...headers,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: ENVELOPE } }),
    });

  it('?toolsets=cucm,reports: cucm tools without the credential ones, the report tools, infra (both revisions)', async () => {
    for (const tools of await both('ada', '/mcp?toolsets=cucm,reports')) {
      const names = tools.map((t) => t.name);
      assert.ok(names.includes('infra_init_session') && names.includes('cucm_axl_call'));
      assert.ok(names.includes('common_write_report'));
      assert.deepEqual(
        names.filter((n) => !/^(infra|cucm|common)_/.test(n) || CREDENTIAL.test(n)),
        [],
        'nothing outside cucm and reports',
      );
    }
  });

  it('readonly=1: only tools annotated read-only are listed, and a write tool is refused when called', async () => {
    for (const tools of await both('ada', '/mcp?readonly=1')) {
      assert.ok(tools.length > 5);
      assert.deepEqual(
        tools.filter((t) => t.annotations?.readOnlyHint !== true).map((t) => t.name),
        [],
      );
    }
    const c = await connectMcp(k, startupToken(k.stateDir, 'ada'), '/mcp?readonly=1');
    try {
      const r = await c.call('common_write_report', { name: 'x.md', content: 'x' });
      assert.equal(r.isError, true);
      assert.equal(r.structuredContent?.error, 'ProfilePermissionError');
      const rec = k
        .auditRecords()
        .filter((x) => x.event === 'ACTIONS' && x.tool_name === 'common_write_report')
        .at(-1);
      assert.equal(rec?.result, 'DENIED');
    } finally {
      await c.close();
    }
  });

  it('a toolset never widens the profile: the auditor asking for credentials gets only its list tool', async () => {
    for (const tools of await both('aud', '/mcp?toolsets=credentials')) {
      assert.deepEqual(
        tools.map((t) => t.name).filter((n) => !n.startsWith('infra_')),
        ['cucm_list_credentials'],
      );
    }
  });

  it('the X-MCP-Toolsets and X-MCP-Readonly headers narrow the same way', async () => {
    const res = await rawList('ada', '/mcp', { 'x-mcp-toolsets': 'imp', 'x-mcp-readonly': 'true' });
    assert.equal(res.status, 200);
    const tools = ((await res.json()) as { result: { tools: Listed[] } }).result.tools;
    const names = tools.map((t) => t.name).filter((n) => !n.startsWith('infra_'));
    assert.ok(
      names.length > 0 && names.every((n) => n.startsWith('imp_') && !CREDENTIAL.test(n)),
      names.join(),
    );
    assert.ok(tools.every((t) => t.annotations?.readOnlyHint === true));
  });

  it('an unknown toolset or a malformed flag is a 400 BAD_REQUEST naming it, never the full list', async () => {
    for (const [path, headers, what] of [
      ['/mcp?toolsets=cucm,phones', {}, /"phones".*known: cucm, imp, cuc, reports, audit, credentials/],
      ['/mcp', { 'x-mcp-toolsets': 'Everything' }, /"everything".*X-MCP-Toolsets/],
      ['/mcp?readonly=yes', {}, /readonly query parameter must be/],
    ] as const) {
      const res = await rawList('ada', path, headers);
      assert.equal(res.status, 400, path);
      const body = (await res.json()) as {
        error: { code: number; message: string; data: { error: string } };
      };
      assert.equal(body.error.data.error, 'BAD_REQUEST');
      assert.match(body.error.message, what);
    }
  });
});
