// Every imp_ tool end to end through a real MCP client against the lab's IM&P node: the CUCM plugin's
// shared AXL and VOS CLI clients under the imp prefix, with refusals by profile and ACTIONS audit (host).
import assert from 'node:assert/strict';
import { actionOutcomes } from '../../helpers/kernel.ts';
import { after, before, describe, it } from 'node:test';
import type { LabNodeInfo } from '../../../lab/index.ts';
import {
  assertRefusedOutsideScope,
  labCredential,
  prepareNode,
  startProductStack,
  type ProductStack,
} from '../../helpers/product-stack.ts';

// The spec's imp_ tools and imp_trust_certificate, then issue 22's serviceability tools.
const IMP_TOOLS = [
  'imp_store_credentials',
  'imp_os_store_credentials',
  'imp_update_credentials',
  'imp_os_update_credentials',
  'imp_delete_credentials',
  'imp_os_delete_credentials',
  'imp_os_trust_fingerprint',
  'imp_trust_certificate',
  'imp_list_credentials',
  'imp_get_version',
  'imp_list_axl_operations',
  'imp_axl_call',
  'imp_download_axl_toolkit',
  'imp_os_run_command',
  'imp_check_connectivity',
  'imp_perfmon_list_counters',
  'imp_perfmon_query',
  'imp_service_status',
  'imp_service_control',
  'imp_drf_status',
  'imp_cert_list',
  'imp_trace_level',
  'imp_log_list',
  'imp_log_collect',
  // Issue 23: the change journal.
  'imp_change_history',
  'imp_undo_change',
];

describe('imp tools through MCP', () => {
  let s: ProductStack;
  let imp: LabNodeInfo;
  before(async () => {
    s = await startProductStack();
    // Stores credentials, downloads the toolkit, checks connectivity and trusts the host key (5 tools).
    imp = await prepareNode(s, 'imp');
  });
  after(async () => {
    await s.stop();
  });

  it('lists the tools of the spec, imp_trust_certificate and the serviceability tools, and refuses each outside the product scope', async () => {
    const names = (await s.mcp.admin.client.listTools()).tools
      .map((t) => t.name)
      .filter((n) => n.startsWith('imp_'));
    assert.deepEqual(names.sort(), [...IMP_TOOLS].sort());
    await assertRefusedOutsideScope(s, names, imp.name);
  });

  it('credential tools: store, update, list, delete, with refusals by profile', async () => {
    const args = { ...labCredential(s.lab, imp, 'axl'), host: 'imp-e2e.example.com' };
    const osArgs = { ...labCredential(s.lab, imp, 'os'), host: 'imp-e2e.example.com' };
    const mark = s.mark();
    await s.ok('operator', 'imp_store_credentials', args);
    await s.ok('operator', 'imp_os_store_credentials', osArgs);
    await s.ok('operator', 'imp_update_credentials', { ...args, password: 'changed-pw-1' });
    await s.ok('operator', 'imp_os_update_credentials', { ...osArgs, password: 'changed-pw-2' });
    const listed = await s.ok('operator', 'imp_list_credentials');
    const kinds = (listed.credentials as { kind: string; host: string }[])
      .filter((c) => c.host === 'imp-e2e.example.com')
      .map((c) => c.kind)
      .sort();
    assert.deepEqual(kinds, ['axl', 'os']);
    assert.equal(
      (await s.fails('operator', 'imp_delete_credentials', { host: args.host })).error,
      'ProfilePermissionError',
    );
    assert.equal(
      (await s.fails('operator', 'imp_os_delete_credentials', { host: args.host })).error,
      'ProfilePermissionError',
    );
    assert.equal((await s.fails('auditor', 'imp_store_credentials', args)).error, 'ProfilePermissionError');
    assert.equal(
      (await s.fails('auditor', 'imp_os_update_credentials', osArgs)).error,
      'ProfilePermissionError',
    );
    await s.ok('admin', 'imp_store_credentials', args);
    await s.ok('admin', 'imp_os_store_credentials', osArgs);
    await s.ok('admin', 'imp_delete_credentials', { host: args.host });
    await s.ok('admin', 'imp_os_delete_credentials', { host: args.host });
    const rec = s.auditSince(mark);
    for (const tool of ['imp_store_credentials', 'imp_os_update_credentials', 'imp_os_delete_credentials'])
      assert.ok(
        rec.some((r) => r.event === 'ACTIONS' && r.tool_name === tool && r.host === args.host),
        tool,
      );
    assert.ok(rec.some((r) => r.event === 'CREDENTIAL' && r.product === 'imp' && r.operation === 'delete'));
    assert.ok(!JSON.stringify(rec).includes('changed-pw-1'));
  });

  it('trust_fingerprint is admin-only; the admin pinned the key during preparation', async () => {
    const denied = await s.fails('operator', 'imp_os_trust_fingerprint', {
      host: imp.name,
      fingerprint: imp.sshHostKeyFingerprint,
      action: 'trust',
    });
    assert.equal(denied.error, 'ProfilePermissionError');
    const keys = (await s.ok('admin', 'imp_list_credentials')).host_keys as { host: string; state: string }[];
    assert.equal(keys.find((k) => k.host === imp.name)?.state, 'trusted');
  });

  it('get_version, list_axl_operations and download are served from the IM&P schema cache', async () => {
    const v = await s.ok('auditor', 'imp_get_version', { host: imp.name });
    assert.match(String(v.version), /^15\./);
    const ops = await s.ok('auditor', 'imp_list_axl_operations', { host: imp.name, pattern: 'presence' });
    assert.ok((ops.operations as string[]).includes('assignPresenceUser'), JSON.stringify(ops).slice(0, 300));
    const denied = await s.fails('operator', 'imp_download_axl_toolkit', { host: imp.name });
    assert.equal(denied.error, 'ProfilePermissionError');
  });

  it('axl_call reads and writes presence data; the auditor may not write', async () => {
    const mark = s.mark();
    const group = await s.ok('auditor', 'imp_axl_call', {
      host: imp.name,
      operation: 'getPresenceRedundancyGroup',
      args: { name: 'DefaultCUPSubcluster' },
    });
    assert.ok(JSON.stringify(group.result).includes('DefaultCUPSubcluster'));
    const refused = await s.fails('auditor', 'imp_axl_call', {
      host: imp.name,
      operation: 'assignPresenceUser',
      args: { userid: 'rjones', server: 'imp-sub1' },
    });
    assert.equal(refused.error, 'ProfilePermissionError');
    // The operator confirms each change (writes: confirm): previewed, then sent with the plan_id.
    const assign = {
      host: imp.name,
      operation: 'assignPresenceUser',
      args: { userid: 'rjones', server: 'imp-sub1' },
    };
    await s.ok('operator', 'imp_axl_call', await s.plan('operator', 'imp_axl_call', assign));
    const db = s.lab.state.imp.db;
    const rjones = db.table('enduser').findBy('userid', 'rjones');
    const assignment = db.table('presenceuserassignment').findBy('fkenduser', rjones?.pkid as string);
    assert.equal(db.table('processnode').byPkid(assignment?.fkprocessnode)?.name, 'imp-sub1');
    const listed = await s.ok('auditor', 'imp_axl_call', {
      host: imp.name,
      operation: 'listAssignedPresenceUsers',
      args: { searchCriteria: { userid: 'rjones' }, returnedTags: { userid: '', server: '' } },
    });
    assert.equal(listed.count, 1);
    const actions = actionOutcomes(s.auditSince(mark)).filter((r) => r.tool_name === 'imp_axl_call');
    assert.deepEqual(
      actions.map((r) => [r.result, r.host]),
      [
        ['ALLOWED', imp.name],
        ['DENIED', imp.name],
        ['ALLOWED', imp.name], // the assignment's preview, then the confirmed assignment
        ['ALLOWED', imp.name],
        ['ALLOWED', imp.name],
      ],
    );
  });

  it('os_run_command runs utils ha status in the pooled shell; check_connectivity reports AXL and SSH', async () => {
    const ha = await s.ok('auditor', 'imp_os_run_command', { host: imp.name, command: 'utils ha status' });
    assert.match(String(ha.output), /Sub-Cluster HA Mode/);
    const denied = await s.fails('operator', 'imp_os_run_command', {
      host: imp.name,
      command: 'utils system restart',
    });
    assert.equal(denied.error, 'ProfilePermissionError');
    const check = await s.ok('operator', 'imp_check_connectivity', { host: imp.name });
    const services = check.services as Record<string, { ok: boolean; latency_ms: number }>;
    assert.deepEqual(Object.keys(services).sort(), ['axl', 'ssh']);
    assert.ok(
      Object.values(services).every((v) => v.ok && v.latency_ms >= 0),
      JSON.stringify(services),
    );
  });
});
