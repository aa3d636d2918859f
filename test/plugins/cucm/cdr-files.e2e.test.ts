// cucm_cdr_files end to end through real MCP clients against the lab's CDRonDemandService (HTTPS with a
// pinned certificate): the files the lab's repository holds, one get_file_list per hour of the span, a
// full answer continued from its last file, only the failed files, the refusals before anything is
// sent (span too long, end before start, bad time, RBAC scope) and the node's request rate.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LabNodeInfo } from '../../../lab/index.ts';
import { actionOutcomes } from '../../helpers/kernel.ts';
import {
  assertRefusedOutsideScope,
  startProductStack,
  type ProductStack,
} from '../../helpers/product-stack.ts';

const p = (n: number): string => String(n).padStart(2, '0');
const cdrTime = (minute: number): string => {
  const d = new Date(minute * 60_000);
  return `${d.getUTCFullYear()}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}${p(d.getUTCHours())}${p(d.getUTCMinutes())}`;
};

describe('cucm_cdr_files through MCP', () => {
  let s: ProductStack;
  let cucm: LabNodeInfo;
  /** The start of the hour two hours ago, in epoch minutes: every minute of it is written. */
  let base: number;
  before(async () => {
    // The node allows 8 get_file_list a minute here, fewer than the 10 this server assumes: the node's
    // own rate fault is what stops the last test.
    s = await startProductStack({ lab: { cdrRateLimitPerMinute: 8 }, prepare: ['cucm'] });
    cucm = s.node('cucm');
    base = Math.floor(Date.now() / 3_600_000) * 60 - 120;
  });
  after(async () => {
    await s?.stop();
  });

  it('lists the repository files of a span, one request per hour, as the lab holds them', async () => {
    const from = s.lab.state.log.requests.length;
    const mark = s.mark();
    const r = await s.ok('auditor', 'cucm_cdr_files', {
      host: cucm.name,
      from: cdrTime(base),
      to: new Date((base + 90) * 60_000).toISOString(),
    });
    const expected = s.lab.state.cucm.cdr.between(base, base + 90).map((f) => f.name);
    const files = r.files as {
      name: string;
      kind: string;
      cluster_id: string;
      node_id: string;
      time: string;
    }[];
    assert.deepEqual(
      files.map((f) => f.name),
      [...new Set(expected)],
    );
    assert.ok(files.length > 40);
    assert.deepEqual(files[0] && Object.keys(files[0]).sort(), [
      'cluster_id',
      'kind',
      'name',
      'node_id',
      'sequence',
      'time',
    ]);
    assert.equal(files[0]?.cluster_id, 'StandAloneCluster');
    assert.deepEqual(r.counts, {
      cdr: files.filter((f) => f.kind === 'cdr').length,
      cmr: files.filter((f) => f.kind === 'cmr').length,
      other: 0,
    });
    assert.equal(r.requests, 2);
    assert.equal(r.complete, true);
    assert.deepEqual(s.serviceabilityOps(from), [
      'CDRonDemandService.get_file_list',
      'CDRonDemandService.get_file_list',
    ]);
    const [action] = actionOutcomes(s.auditSince(mark)).filter((a) => a.tool_name === 'cucm_cdr_files');
    assert.equal(action?.operation, 'get_file_list');
    assert.equal(action?.result, 'ALLOWED');
  });

  it('include_sent false and kind narrow the list', async () => {
    const r = await s.ok('operator', 'cucm_cdr_files', {
      host: cucm.name,
      from: cdrTime(base),
      include_sent: false,
      kind: 'cmr',
    });
    const expected = s.lab.state.cucm.cdr
      .between(base, base + 60)
      .filter((f) => !f.sent && f.kind === 'cmr')
      .map((f) => f.name);
    assert.deepEqual(
      (r.files as { name: string }[]).map((f) => f.name),
      expected,
    );
  });

  it('a full answer of 1300 names is continued from its last file time', async () => {
    // 1350 more files over nine minutes: the first answer ends inside the ninth.
    for (let i = 0; i < 1350; i++) {
      const minute = base + 61 + Math.floor(i / 150);
      s.lab.state.cucm.cdr.add({
        name: `cdr_StandAloneCluster_01_${cdrTime(minute)}_${800000 + i}`,
        kind: 'cdr',
        minute,
        node: cucm.name,
        sent: true,
      });
    }
    const r = await s.ok('auditor', 'cucm_cdr_files', {
      host: cucm.name,
      from: cdrTime(base + 60),
      max_files: 5000,
    });
    const expected = new Set(s.lab.state.cucm.cdr.between(base + 60, base + 120).map((f) => f.name));
    assert.equal((r.files as unknown[]).length, expected.size);
    assert.ok(expected.size > 1400);
    assert.equal(r.requests, 2);
    assert.equal(r.complete, true);
  });

  it('refuses a span over six hours, an end before the start and a bad time, sending nothing', async () => {
    const sent = s.lab.state.log.requests.length;
    const long = await s.fails('auditor', 'cucm_cdr_files', {
      host: cucm.name,
      from: cdrTime(base - 600),
      to: cdrTime(base),
    });
    assert.equal(long.error, 'BAD_REQUEST');
    assert.match(long.message, /spans 600 minutes; one call lists at most 360/);
    const back = await s.fails('auditor', 'cucm_cdr_files', {
      host: cucm.name,
      from: cdrTime(base),
      to: cdrTime(base - 1),
    });
    assert.equal(back.error, 'BAD_REQUEST');
    const unreal = await s.fails('auditor', 'cucm_cdr_files', { host: cucm.name, from: '202613011000' });
    assert.equal(unreal.error, 'BAD_REQUEST');
    const markup = await s.fails('auditor', 'cucm_cdr_files', { host: cucm.name, from: '<x/>' });
    assert.equal(markup.error, 'BAD_REQUEST');
    assert.equal(s.lab.state.log.requests.length, sent, 'nothing was sent');
  });

  it('RBAC: outside the product scope nothing is sent', async () => {
    await assertRefusedOutsideScope(s, ['cucm_cdr_files'], cucm.name);
  });

  it("past the node's rate the call fails with SERVICEABILITY_ERROR and a retry time", async () => {
    // Six-hour spans (six requests each) until the node's eight a minute are spent.
    let r: Record<string, unknown> | undefined;
    for (let i = 0; i < 3 && !r; i++) {
      const call = await s.mcp[i % 2 ? 'operator' : 'auditor'].call('cucm_cdr_files', {
        host: cucm.name,
        from: cdrTime(base - 300),
        to: cdrTime(base + 60),
      });
      if (call.isError) r = call.structuredContent as Record<string, unknown>;
    }
    assert.ok(r, 'the node refused within three calls');
    assert.equal(r.error, 'SERVICEABILITY_ERROR');
    assert.match(String(r.message), /Exceeded allowed rate for CDRonDemand.*8 requests per minute/);
    assert.ok(Number(r.retry_after_s) >= 1, JSON.stringify(r));
    const sent = s.lab.state.log.requests.length;
    const next = await s.fails('operator', 'cucm_cdr_files', { host: cucm.name, from: cdrTime(base) });
    assert.equal(next.error, 'SERVICEABILITY_ERROR');
    assert.equal(s.lab.state.log.requests.length, sent, 'refused here, before sending');
  });
});
