import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestKernel, type TestKernel } from '../../helpers/kernel.ts';
import { connectMcp, startupToken, type ConnectedClient } from '../../helpers/mcp-client.ts';

describe('the infra plugin, through a real MCP client', () => {
  let k: TestKernel;
  let c: ConnectedClient;
  before(async () => {
    k = await startTestKernel({
      license: { products: ['cucm', 'imp'] },
      env: { AUTH_CLIENTS: 'amy:auditor:cucm+cuc', AUTH_BCRYPT_COST: '4' },
    });
    c = await connectMcp(k, startupToken(k.stateDir, 'amy'));
  });
  after(async () => {
    await c.close();
    await k.stop();
  });

  const s = async (name: string, args: Record<string, unknown> = {}) => {
    const r = await c.call(name, args);
    assert.equal(r.isError, undefined, `${name}: ${JSON.stringify(r.structuredContent)}`);
    return r.structuredContent as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  };

  it('infra_health: status, ready, license, server name, uptime', async () => {
    const h = await s('infra_health');
    assert.deepEqual(Object.keys(h).sort(), ['license', 'ready', 'server', 'status', 'uptime_seconds']);
    assert.equal(h.license, 'VALID');
    assert.equal(h.ready, true);
  });

  it('infra_server_status: server, license, backup, requests and security sections with live values', async () => {
    await s('infra_health');
    const st = await s('infra_server_status');
    for (const section of ['server', 'license', 'backup', 'requests', 'security'])
      assert.ok(st[section], section);
    assert.ok('last' in st.backup && ['pending', 'ok'].includes(st.backup.status), JSON.stringify(st.backup));
    assert.ok(st.requests.tool_calls.total >= 1);
    assert.ok(st.requests.tool_calls.by.ALLOWED >= 1);
    assert.equal(st.security.tls.min_version, 'TLSv1.2');
    assert.equal(st.security.oauth.issuer, k.url);
    assert.equal(st.security.integrity.mode, 'warn');
    assert.equal(st.license.state, 'VALID');
  });

  it('infra_metrics: the same families as /metrics', async () => {
    const m = await s('infra_metrics');
    assert.ok(m.metrics.ucmcp_tool_calls_total);
    assert.ok(m.metrics.ucmcp_auth_failures_total);
  });

  it('infra_list_available_products: licensed versus scope, and the difference', async () => {
    const p = await s('infra_list_available_products');
    assert.deepEqual(p.licensed, ['cucm', 'imp']);
    assert.deepEqual(p.in_scope, ['cucm', 'cuc']);
    assert.deepEqual(p.available, ['cucm']);
    assert.deepEqual(p.out_of_scope, ['imp']);
    assert.deepEqual(p.not_licensed, ['cuc']);
  });

  it('infra_get_my_permissions: the auditor matrix the runner enforces', async () => {
    const m = await s('infra_get_my_permissions');
    assert.equal(m.profile, 'auditor');
    assert.ok(m.tools.allowed.includes('infra_health'));
    assert.deepEqual(m.allowlists.axl.allow, ['get*', 'list*', 'executeSQLQuery']);
    assert.equal(m.rateLimits.cucm.ris.limit, 15);
  });

  it('prompts and docs: filtered by license and product scope; unknown names are coded errors', async () => {
    // Licensed cucm+imp, client scope cucm+cuc: only CUCM's prompt and documents are visible.
    const prompts = (await s('infra_list_prompts')).prompts as { name: string }[];
    assert.deepEqual(
      prompts.map((p) => p.name),
      ['cucm_security_audit', 'cucm_health_check'],
    );
    const docs = (await s('infra_list_docs')).docs as { uri: string }[];
    assert.ok(docs.length > 0 && docs.every((d) => d.uri.startsWith('cucm://')), JSON.stringify(docs));
    const p = await s('infra_get_prompt', { name: 'cucm_security_audit', arguments: { host: 'cucm-pub' } });
    assert.match(JSON.stringify(p), /CUCM-TLS-01/);
    const hidden = await c.call('infra_get_prompt', { name: 'imp_security_audit', arguments: { host: 'x' } });
    assert.equal(
      hidden.structuredContent?.error,
      'NOT_FOUND',
      'imp is licensed but outside the client scope',
    );
    const d = await c.call('infra_get_doc', { name: 'cuc://cupi/reference' });
    assert.equal(d.structuredContent?.error, 'NOT_FOUND', 'cuc is in scope but not licensed');
    const unknown = await c.call('infra_get_prompt', { name: 'no_such_prompt' });
    assert.equal(unknown.structuredContent?.error, 'NOT_FOUND');
    const native = await c.client.listPrompts();
    assert.deepEqual(
      native.prompts.map((x) => x.name),
      ['cucm_security_audit', 'cucm_health_check'],
    );
  });
});
