// Every cuc_ tool end to end through a real MCP client against the lab's Unity Connection node: CUPI
// under /vmrest/ only, the shared VOS CLI client, refusals by profile and the ACTIONS audit (host).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LabNodeInfo } from '../../../lab/index.ts';
import { actionOutcomes } from '../../helpers/kernel.ts';
import {
  assertRefusedOutsideScope,
  labCredential,
  prepareNode,
  startProductStack,
  type ProductStack,
} from '../../helpers/product-stack.ts';

// The spec's cuc_ tools and cuc_trust_certificate, then issue 22's serviceability tools.
const CUC_TOOLS = [
  'cuc_store_credentials',
  'cuc_os_store_credentials',
  'cuc_update_credentials',
  'cuc_os_update_credentials',
  'cuc_delete_credentials',
  'cuc_os_delete_credentials',
  'cuc_os_trust_fingerprint',
  'cuc_trust_certificate',
  'cuc_list_credentials',
  'cuc_get_version',
  'cuc_cupi_list',
  'cuc_cupi_call',
  'cuc_os_run_command',
  'cuc_check_connectivity',
  'cuc_perfmon_list_counters',
  'cuc_perfmon_query',
  'cuc_service_status',
  'cuc_service_control',
  'cuc_drf_status',
  'cuc_cert_list',
  'cuc_trace_level',
  'cuc_log_list',
  'cuc_log_collect',
  // Issue 23: the change journal.
  'cuc_change_history',
  'cuc_undo_change',
];

describe('cuc tools through MCP', () => {
  let s: ProductStack;
  let cuc: LabNodeInfo;
  before(async () => {
    s = await startProductStack({ scopedProducts: 'cucm+imp' });
    // Stores CUPI and OS credentials, checks connectivity and trusts the host key.
    cuc = await prepareNode(s, 'cuc');
  });
  after(async () => {
    await s.stop();
  });

  it('lists the tools of the spec, cuc_trust_certificate and the serviceability tools, and refuses each outside the product scope', async () => {
    const names = (await s.mcp.admin.client.listTools()).tools
      .map((t) => t.name)
      .filter((n) => n.startsWith('cuc_'));
    assert.deepEqual(names.sort(), [...CUC_TOOLS].sort());
    await assertRefusedOutsideScope(s, names, cuc.name);
  });

  it('credential tools: store, update, list, delete, with refusals by profile', async () => {
    const args = { ...labCredential(s.lab, cuc, 'cupi'), host: 'cuc-e2e.example.com' };
    const osArgs = { ...labCredential(s.lab, cuc, 'os'), host: 'cuc-e2e.example.com' };
    const mark = s.mark();
    await s.ok('operator', 'cuc_store_credentials', args);
    await s.ok('operator', 'cuc_os_store_credentials', osArgs);
    await s.ok('operator', 'cuc_update_credentials', { ...args, password: 'changed-cupi-pw' });
    await s.ok('operator', 'cuc_os_update_credentials', { ...osArgs, password: 'changed-os-pw' });
    const listed = await s.ok('auditor', 'cuc_list_credentials');
    assert.deepEqual(
      (listed.credentials as { kind: string; host: string }[])
        .filter((c) => c.host === cuc.name)
        .map((c) => c.kind)
        .sort(),
      ['cupi', 'os'],
    );
    assert.equal(
      (await s.fails('operator', 'cuc_delete_credentials', { host: args.host })).error,
      'ProfilePermissionError',
    );
    assert.equal(
      (await s.fails('operator', 'cuc_os_delete_credentials', { host: args.host })).error,
      'ProfilePermissionError',
    );
    assert.equal((await s.fails('auditor', 'cuc_store_credentials', args)).error, 'ProfilePermissionError');
    await s.ok('admin', 'cuc_store_credentials', args);
    await s.ok('admin', 'cuc_os_store_credentials', osArgs);
    await s.ok('admin', 'cuc_delete_credentials', { host: args.host });
    await s.ok('admin', 'cuc_os_delete_credentials', { host: args.host });
    const rec = s.auditSince(mark);
    for (const tool of ['cuc_store_credentials', 'cuc_update_credentials', 'cuc_os_delete_credentials'])
      assert.ok(
        rec.some((r) => r.event === 'ACTIONS' && r.tool_name === tool && r.host === args.host),
        tool,
      );
    assert.ok(!JSON.stringify(rec).includes('changed-cupi-pw'));
    const wrongKind = await s.fails('admin', 'cuc_os_trust_fingerprint', {
      host: cuc.name,
      fingerprint: cuc.sshHostKeyFingerprint,
      action: 'maybe',
    });
    assert.equal(wrongKind.error, 'BAD_REQUEST');
    assert.equal(
      (
        await s.fails('operator', 'cuc_os_trust_fingerprint', {
          host: cuc.name,
          fingerprint: cuc.sshHostKeyFingerprint,
          action: 'trust',
        })
      ).error,
      'ProfilePermissionError',
    );
  });

  it('get_version reads /vmrest/version/product for every profile', async () => {
    for (const role of ['admin', 'operator', 'auditor'] as const) {
      const v = await s.ok(role, 'cuc_get_version', { host: cuc.name });
      assert.match(JSON.stringify(v), /15\.0\./);
    }
  });

  it('a user created with POST is listed, updated with PUT and removed with DELETE, in the lab state', async () => {
    const users = s.lab.state.cuc.cupi.collection('users');
    const mark = s.mark();
    // The operator's profile confirms every change (writes: confirm): previewed, then sent with the plan_id.
    const created = await s.ok(
      'operator',
      'cuc_cupi_call',
      await s.plan('operator', 'cuc_cupi_call', {
        host: cuc.name,
        method: 'POST',
        path: '/vmrest/users',
        query: { templateAlias: 'voicemailusertemplate' },
        body: { Alias: 'e2e.user', FirstName: 'End', LastName: 'ToEnd', DtmfAccessId: '7788' },
      }),
    );
    assert.equal(created.status, 201);
    const location = String(created.location);
    const id = location.split('/').pop() as string;
    assert.equal(users.items.get(id)?.Alias, 'e2e.user');

    const listed = await s.ok('auditor', 'cuc_cupi_list', {
      host: cuc.name,
      resource: 'users',
      query: '(alias startswith e2e)',
    });
    assert.equal(listed.total, 1);
    assert.equal((listed.items as { Alias: string }[])[0]?.Alias, 'e2e.user');
    const none = await s.ok('auditor', 'cuc_cupi_list', {
      host: cuc.name,
      resource: 'users',
      query: '(alias is nobody)',
    });
    assert.equal(none.total, 0);
    assert.deepEqual(none.items, []);

    await s.ok(
      'operator',
      'cuc_cupi_call',
      await s.plan('operator', 'cuc_cupi_call', {
        host: cuc.name,
        method: 'PUT',
        path: `/vmrest/users/${id}`,
        body: { DisplayName: 'E2E Updated' },
      }),
    );
    assert.equal(users.items.get(id)?.DisplayName, 'E2E Updated');

    const opDelete = await s.fails('operator', 'cuc_cupi_call', {
      host: cuc.name,
      method: 'DELETE',
      path: `/vmrest/users/${id}`,
    });
    assert.equal(opDelete.error, 'ProfilePermissionError', 'the operator allowlist has no DELETE');
    const audPost = await s.fails('auditor', 'cuc_cupi_call', {
      host: cuc.name,
      method: 'POST',
      path: '/vmrest/users',
      body: { Alias: 'x' },
    });
    assert.equal(audPost.error, 'ProfilePermissionError');
    const remove = { host: cuc.name, method: 'DELETE', path: `/vmrest/users/${id}` };
    await s.ok('admin', 'cuc_cupi_call', await s.plan('admin', 'cuc_cupi_call', remove));
    assert.equal(users.items.get(id), undefined);

    const actions = actionOutcomes(s.auditSince(mark));
    assert.ok(actions.every((r) => r.host === cuc.name));
    assert.deepEqual(
      actions.map((r) => r.result),
      // POST (preview, confirmed), two lists, PUT (preview, confirmed), two refusals, DELETE (the same).
      [
        'ALLOWED',
        'ALLOWED',
        'ALLOWED',
        'ALLOWED',
        'ALLOWED',
        'ALLOWED',
        'DENIED',
        'DENIED',
        'ALLOWED',
        'ALLOWED',
      ],
    );
  });

  it('refuses traversal and SSRF forms before any request leaves the server', async () => {
    const forms = [
      'https://evil.example.com/vmrest/users',
      '//evil.example.com/vmrest/users',
      '/vmrest/../axl/',
      '/vmrest/%2e%2e/axl/',
      '/vmrest/%252e%252e/axl/',
      '/vmrest/..%2faxl',
      '/vmrest/users/..\\..\\axl',
      '/vmrest/%5c..%5caxl',
      '/vmrest/users%00',
      '/vmrest/users%0d%0aHost:%20evil',
      '/vmrest@evil.example.com/users',
      '/vmrest/%c0%ae%c0%ae/axl',
      '/vmrestx/users',
      '/axl/',
      `/vmrest/${'a'.repeat(5000)}`,
    ];
    const before = s.lab.state.log.requests.length;
    for (const path of forms) {
      const r = await s.fails('admin', 'cuc_cupi_call', { host: cuc.name, method: 'GET', path });
      assert.ok(
        ['BAD_REQUEST', 'ProfilePermissionError'].includes(r.error),
        `${path}: ${r.error} ${r.message}`,
      );
    }
    assert.equal(s.lab.state.log.requests.length, before, 'nothing reached the node');
  });

  it('a CUPI error is CUPIError with the node status and message', async () => {
    const r = await s.fails('auditor', 'cuc_cupi_call', {
      host: cuc.name,
      method: 'GET',
      path: '/vmrest/users/no-such-id',
    });
    assert.equal(r.error, 'CUPIError');
    assert.match(r.message, /404/);
  });

  it('os_run_command and check_connectivity (CUPI and SSH)', async () => {
    const out = await s.ok('auditor', 'cuc_os_run_command', {
      host: cuc.name,
      command: 'show version active',
    });
    assert.match(String(out.output), /Active Master Version/);
    const denied = await s.fails('operator', 'cuc_os_run_command', {
      host: cuc.name,
      command: 'utils system restart',
    });
    assert.equal(denied.error, 'ProfilePermissionError');
    const check = await s.ok('auditor', 'cuc_check_connectivity', { host: cuc.name });
    const services = check.services as Record<string, { ok: boolean; reason?: string }>;
    assert.deepEqual(Object.keys(services).sort(), ['cupi', 'ssh']);
    for (const [n, v] of Object.entries(services)) assert.equal(v.ok, true, `${n}: ${v.reason}`);
  });
});
