// The PerfMon tools end to end through real MCP clients against the lab's PerfmonService (HTTPS with
// pinned certificates): objects and counters with descriptions, values with units per node derived from
// the lab's state, percentage counters sampled twice in a session, the three products' twins, and the
// refusals: unknown object, bad input, RBAC product scope, the node's rate fault with a retry time, and
// a node that does not answer.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LabNodeInfo } from '../../../../lab/index.ts';
import { actionOutcomes } from '../../../helpers/kernel.ts';
import { registeredPhones } from '../../../lab/helpers.ts';
import {
  assertRefusedOutsideScope,
  startProductStack,
  storeUnreachableNode,
  type ProductStack,
} from '../../../helpers/product-stack.ts';

const PERFMON = 'PerfmonService';

describe('PerfMon tools through MCP', () => {
  let s: ProductStack;
  let cucm: LabNodeInfo;
  let sub: string;
  before(async () => {
    // Each node's PerfMon allows 40 requests a minute here, fewer than the 80 this server assumes: the
    // node's own rate fault is what stops the last test.
    s = await startProductStack({
      lab: { perfmonRateLimitPerMinute: 40 },
      prepare: ['cucm', 'imp', 'cuc'],
    });
    cucm = s.node('cucm');
    sub = s.lab.state.cucm.ris.nodes.find((n) => n !== cucm.name) as string;
  });
  after(async () => {
    await s?.stop();
  });

  const perfmonOps = (from: number): string[] =>
    s.serviceabilityOps(from).map((op) => op.replace(`${PERFMON}.`, ''));

  it('lists objects and counters; one object with descriptions and instances', async () => {
    const all = await s.ok('auditor', 'cucm_perfmon_list_counters', { host: cucm.name });
    const objects = all.objects as {
      name: string;
      counters: { name: string; unit: string; samples: number }[];
    }[];
    const cm = objects.find((o) => o.name === 'Cisco CallManager');
    assert.ok(cm?.counters.some((c) => c.name === 'RegisteredHardwarePhones' && c.unit === 'count'));
    const cpu = objects.find((o) => o.name === 'Processor');
    assert.deepEqual(
      cpu?.counters.find((c) => c.name === '% CPU Time'),
      { name: '% CPU Time', unit: 'percent', samples: 2 },
    );
    assert.equal(all.requests, 1);

    const from = s.lab.state.log.requests.length;
    const one = await s.ok('operator', 'cucm_perfmon_list_counters', {
      host: cucm.name,
      object: 'Processor',
      instances: true,
    });
    const [proc] = one.objects as { instances: string[]; counters: { description?: string }[] }[];
    assert.ok(proc?.instances.includes('_Total'));
    assert.ok(proc?.counters.every((c) => typeof c.description === 'string' && c.description.length > 0));
    assert.deepEqual(perfmonOps(from), [
      'perfmonListCounter',
      'perfmonListInstance',
      ...proc!.counters.map(() => 'perfmonQueryCounterDescription'),
    ]);
    // Descriptions are kept per node: asking again costs one request.
    const again = await s.ok('operator', 'cucm_perfmon_list_counters', {
      host: cucm.name,
      object: 'Processor',
    });
    assert.equal(again.requests, 1);
  });

  it('reads counters per node with units; the registration count is what RIS holds', async () => {
    const mark = s.mark();
    const r = await s.ok('auditor', 'cucm_perfmon_query', {
      host: cucm.name,
      object: 'Cisco CallManager',
      counters: ['RegisteredHardwarePhones', 'CallsActive'],
      nodes: [cucm.name, sub],
    });
    const expected = (node: string): number => registeredPhones(s.lab, node);
    const nodes = r.nodes as { node: string; values: { counter: string; value: number; unit: string }[] }[];
    assert.deepEqual(
      nodes.map((n) => [n.node, n.values.find((v) => v.counter === 'RegisteredHardwarePhones')?.value]),
      [
        [cucm.name, expected(cucm.name)],
        [sub, expected(sub)],
      ],
    );
    assert.ok(expected(cucm.name) > 0);
    assert.equal(r.requests, 2);
    const [action] = actionOutcomes(s.auditSince(mark)).filter((a) => a.tool_name === 'cucm_perfmon_query');
    assert.equal(action?.operation, 'perfmonCollectCounterData');
    assert.equal(action?.result, 'ALLOWED');
  });

  it('samples percentage counters twice in one session and closes it', async () => {
    const from = s.lab.state.log.requests.length;
    const r = await s.ok('auditor', 'cucm_perfmon_query', {
      host: cucm.name,
      object: 'Processor',
      counters: ['% CPU Time', 'Idle Percentage'],
      instances: ['_Total', '0'],
      sample_interval_seconds: 1,
    });
    const [n] = r.nodes as { values: unknown[] }[];
    // The lab's CPUs are busy 14 % in total and 16 % on CPU 0; one sample alone gives 0 (no average yet).
    const pct = (counter: string, instance: string, value: number) => ({
      counter,
      instance,
      value,
      unit: 'percent',
      samples: 2,
    });
    assert.deepEqual(n?.values, [
      pct('% CPU Time', '_Total', 14),
      pct('Idle Percentage', '_Total', 86),
      pct('% CPU Time', '0', 16),
      pct('Idle Percentage', '0', 84),
    ]);
    assert.deepEqual(perfmonOps(from), [
      'perfmonCollectCounterData',
      'perfmonOpenSession',
      'perfmonAddCounter',
      'perfmonCollectSessionData',
      'perfmonCollectSessionData',
      'perfmonCloseSession',
    ]);
  });

  it('the IM&P and Unity Connection twins read their own nodes', async () => {
    const imp = s.node('imp');
    const r = await s.ok('auditor', 'imp_perfmon_query', { host: imp.name, object: 'Cisco XCP CM' });
    assert.deepEqual((r.nodes as { values: unknown[] }[])[0]?.values, [
      { counter: 'ConnectedSockets', value: 42, unit: 'count', samples: 1 },
    ]);
    const cuc = s.node('cuc');
    const l = await s.ok('auditor', 'cuc_perfmon_list_counters', { host: cuc.name });
    assert.ok((l.objects as { name: string }[]).some((o) => o.name === 'Memory'));
  });

  it('refuses an unknown object and bad input with coded errors', async () => {
    const listed = await s.fails('auditor', 'cucm_perfmon_list_counters', {
      host: cucm.name,
      object: 'No Such Object',
    });
    assert.equal(listed.error, 'NOT_FOUND');
    assert.match(listed.message, /Cisco CallManager/);
    const queried = await s.fails('auditor', 'cucm_perfmon_query', {
      host: cucm.name,
      object: 'No Such Object',
    });
    assert.equal(queried.error, 'SERVICEABILITY_ERROR');
    assert.match(queried.message, /perfmonCollectCounterData.*No Such Object/);
    const sent = s.lab.state.log.requests.length;
    const bad = await s.fails('auditor', 'cucm_perfmon_query', { host: cucm.name, object: 'Memory\\x' });
    assert.equal(bad.error, 'BAD_REQUEST');
    assert.equal(s.lab.state.log.requests.length, sent, 'nothing was sent');
  });

  it('RBAC: outside the product scope nothing is sent', async () => {
    await assertRefusedOutsideScope(s, ['cucm_perfmon_list_counters', 'cucm_perfmon_query'], cucm.name);
  });

  it('a node that does not answer is a ConnectivityError after the retries', async () => {
    await storeUnreachableNode(s, cucm, 'dead-node');
    const r = await s.fails('admin', 'cucm_perfmon_query', { host: 'dead-node', object: 'Memory' });
    assert.equal(r.error, 'ConnectivityError');
    assert.match(r.message, /unreachable after 4 attempts/);
  });

  it("past the node's rate the call fails with SERVICEABILITY_ERROR and a retry time, for every client", async () => {
    const cuc = s.node('cuc');
    let refused: Record<string, unknown> | undefined;
    const roles = ['auditor', 'operator'] as const;
    for (let i = 0; i < 45 && !refused; i++) {
      const r = await s.mcp[roles[i % 2]!].call('cuc_perfmon_query', { host: cuc.name, object: 'Memory' });
      if (r.isError) refused = r.structuredContent as Record<string, unknown>;
    }
    assert.ok(refused, 'the node refused within 45 calls');
    assert.equal(refused.error, 'SERVICEABILITY_ERROR');
    assert.match(
      String(refused.message),
      /Exceeded allowed rate for Perfmon information.*40 requests per minute/,
    );
    assert.ok(Number(refused.retry_after_s) >= 30, JSON.stringify(refused));
    // Our window now knows: the next call is refused before anything is sent.
    const sent = s.lab.state.log.requests.length;
    const next = await s.fails('admin', 'cuc_perfmon_query', { host: cuc.name, object: 'Memory' });
    assert.equal(next.error, 'SERVICEABILITY_ERROR');
    assert.match(next.message, /budget .* is used up; retry in \d+ s/);
    assert.equal(s.lab.state.log.requests.length, sent);
  });
});
