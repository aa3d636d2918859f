// The log listing tools end to end through real MCP clients against the lab's LogCollectionPortTypeService
// (HTTPS with pinned certificates, answers as Axis2 MTOM): the cluster's service and system logs, a
// window's files with their paths, sizes and dates, the IM&P and Unity Connection twins, the audit's
// operation, and the refusals: bad windows (nothing sent), an unknown log, a node that does not answer
// beside one that does, RBAC product scope, and the node's rate fault with a retry time.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LabNodeInfo } from '../../../../lab/index.ts';
import { actionOutcomes } from '../../../helpers/kernel.ts';
import {
  assertRefusedOutsideScope,
  startProductStack,
  storeUnreachableNode,
  type ProductStack,
} from '../../../helpers/product-stack.ts';

const LC = 'LogCollectionPortTypeService';

interface File {
  log: string;
  name: string;
  path: string;
  size: number | null;
  modified: string | null;
  modified_at: string | null;
}

describe('log_list through MCP', () => {
  let s: ProductStack;
  let cucm: LabNodeInfo;
  before(async () => {
    // Each node allows 10 Log Collection requests a minute here, fewer than the 15 this server assumes:
    // the node's own rate fault is what stops the last test.
    s = await startProductStack({
      lab: { logCollectionRateLimitPerMinute: 10 },
      prepare: ['cucm', 'imp', 'cuc'],
    });
    cucm = s.node('cucm');
  });
  after(async () => {
    await s?.stop();
  });

  it("lists the cluster's service and system logs in one request, audited with the operation", async () => {
    const mark = s.mark();
    const from = s.lab.state.log.requests.length;
    const r = await s.ok('auditor', 'cucm_log_list', { host: cucm.name });
    const cluster = r.cluster as { node: string; service_logs: string[]; system_logs: string[] }[];
    assert.deepEqual(
      cluster.map((n) => n.node),
      s.lab.state.cucm.ris.nodes,
    );
    assert.ok(cluster[0]?.service_logs.includes('Cisco CallManager'));
    assert.ok(cluster[0]?.system_logs.includes('Event Viewer-Application Log'));
    assert.deepEqual(s.serviceabilityOps(from), [`${LC}.listNodeServiceLogs`]);
    const [action] = actionOutcomes(s.auditSince(mark)).filter((a) => a.tool_name === 'cucm_log_list');
    assert.equal(action?.operation, 'listNodeServiceLogs');
    assert.equal(action?.result, 'ALLOWED');
  });

  it("lists a window's files with their paths, sizes and times", async () => {
    const mark = s.mark();
    const r = await s.ok('operator', 'cucm_log_list', {
      host: cucm.name,
      services: ['Cisco CallManager'],
      system_logs: ['Event Viewer-System Log'],
      since_minutes: 120,
    });
    const [node] = r.nodes as { node: string; files: File[]; truncated: number }[];
    assert.equal(node?.node, cucm.name);
    const sdl = node!.files.filter((f) => f.log === 'Cisco CallManager');
    // Two hours of a file every fifteen minutes (the newest one still being written).
    assert.ok(sdl.length >= 8 && sdl.length <= 9, String(sdl.length));
    for (const f of sdl) {
      assert.match(f.name, /^SDL001_100_\d{6}\.txt\.gz$/);
      assert.equal(f.path, `/var/log/active/cm/trace/ccm/sdl/${f.name}`);
      assert.ok((f.size ?? 0) > 20);
      assert.ok(Date.parse(f.modified_at ?? '') >= Date.now() - 121 * 60_000, f.modified ?? '');
    }
    assert.ok(node!.files.some((f) => f.log === 'Event Viewer-System Log' && /^messages\.\d$/.test(f.name)));
    const [action] = actionOutcomes(s.auditSince(mark)).filter((a) => a.tool_name === 'cucm_log_list');
    assert.equal(action?.operation, 'selectLogFiles');
  });

  it('a window in the past holds nothing; a bad window is refused before anything is sent', async () => {
    const past = await s.ok('auditor', 'cucm_log_list', {
      host: cucm.name,
      services: ['Cisco CallManager'],
      from: '2020-01-01T10:00:00Z',
      to: '2020-01-01T11:00:00Z',
    });
    assert.deepEqual((past.nodes as { files: File[] }[])[0]?.files, []);
    const sent = s.lab.state.log.requests.length;
    const backwards = await s.fails('auditor', 'cucm_log_list', {
      host: cucm.name,
      services: ['Cisco CallManager'],
      from: '2026-01-02T00:00:00Z',
      to: '2026-01-01T00:00:00Z',
    });
    assert.equal(backwards.error, 'BAD_REQUEST');
    const long = await s.fails('auditor', 'cucm_log_list', {
      host: cucm.name,
      services: ['Cisco CallManager'],
      from: '2026-01-01T00:00:00Z',
      to: '2026-02-01T00:00:00Z',
    });
    assert.match(long.message, /longer than 7 days/);
    const bad = await s.fails('auditor', 'cucm_log_list', {
      host: cucm.name,
      services: ['Cisco\u0001CallManager'],
    });
    assert.equal(bad.error, 'BAD_REQUEST');
    const nodesAlone = await s.fails('auditor', 'cucm_log_list', { host: cucm.name, nodes: ['cucm-sub1'] });
    assert.match(nodesAlone.message, /nodes needs services or system_logs/);
    assert.equal(s.lab.state.log.requests.length, sent, 'nothing was sent');
  });

  it("an unknown log is the node's fault, coded", async () => {
    const r = await s.fails('auditor', 'cucm_log_list', { host: cucm.name, services: ['No Such Service'] });
    assert.equal(r.error, 'SERVICEABILITY_ERROR');
    assert.match(r.message, /selectLogFiles.*No such service log: No Such Service/);
  });

  it('a node that does not answer is listed in failed while the others answer', async () => {
    await storeUnreachableNode(s, cucm, 'dead-node');
    // Credentials are the caller's own: the admin stored this one.
    const r = await s.ok('admin', 'cucm_log_list', {
      host: cucm.name,
      nodes: ['dead-node'],
      services: ['Cisco CTIManager'],
    });
    assert.equal(r.complete, false);
    assert.deepEqual(
      (r.nodes as { node: string }[]).map((n) => n.node),
      [cucm.name],
    );
    const [failed] = r.failed as { node: string; error: { code: string } }[];
    assert.deepEqual(
      [failed?.node, failed?.error.code],
      ['dead-node', 'ConnectivityError'],
      JSON.stringify(failed),
    );
  });

  it('the IM&P and Unity Connection twins list their own logs', async () => {
    const imp = await s.ok('auditor', 'imp_log_list', {
      host: s.node('imp').name,
      services: ['Cisco XCP Router'],
    });
    assert.match((imp.nodes as { files: File[] }[])[0]?.files[0]?.name ?? '', /^rtr-jsm-\d+\.log$/);
    const cuc = await s.ok('auditor', 'cuc_log_list', { host: s.node('cuc').name });
    const logs = (cuc.cluster as { service_logs: string[] }[])[0]?.service_logs ?? [];
    assert.ok(logs.includes('Connection Conversation Manager') && !logs.includes('Cisco CallManager'));
  });

  it('RBAC: outside the product scope nothing is sent', async () => {
    await assertRefusedOutsideScope(s, ['cucm_log_list'], cucm.name);
  });

  it("past the node's rate the call fails with SERVICEABILITY_ERROR and a retry time", async () => {
    let refused: Record<string, unknown> | undefined;
    for (let i = 0; i < 12 && !refused; i++) {
      const r = await s.mcp.auditor.call('cucm_log_list', { host: cucm.name });
      if (r.isError) refused = r.structuredContent as Record<string, unknown>;
    }
    assert.ok(refused, 'the node refused within 12 calls');
    assert.equal(refused.error, 'SERVICEABILITY_ERROR');
    assert.match(String(refused.message), /Exceeded allowed rate for Log Collection.*10 requests per minute/);
    assert.ok(Number(refused.retry_after_s) >= 30, JSON.stringify(refused));
    const sent = s.lab.state.log.requests.length;
    const next = await s.fails('operator', 'cucm_log_list', { host: cucm.name });
    assert.match(next.message, /budget .* is used up; retry in \d+ s/);
    assert.equal(s.lab.state.log.requests.length, sent);
  });
});
