// Every serviceability operation a tool sends is checked against the caller's allowlist before it is
// sent, not only the tool's main one: the default profiles permit what the read tools send (PerfMon
// sessions and descriptions, the static service list), and a client narrowed to deny one inner
// operation is refused with a coded error the moment the tool would send it, with nothing of it sent
// and the refusal on the call's outcome record.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { LabNodeInfo } from '../../../../lab/index.ts';
import { actionOutcomes } from '../../../helpers/kernel.ts';
import { startProductStack, type ProductStack } from '../../../helpers/product-stack.ts';
import { tempStateDir } from '../../../helpers/state-dir.ts';

describe('serviceability inner operations: each one checked against the allowlist', () => {
  const state = tempStateDir('ucmcp-svcrbac-');
  let s: ProductStack;
  let cucm: LabNodeInfo;
  before(async () => {
    // operator1 keeps its profile but its client.json denies one inner operation of each API.
    mkdirSync(join(state.dir, 'clients', 'operator1'), { recursive: true });
    writeFileSync(
      join(state.dir, 'clients', 'operator1', 'client.json'),
      JSON.stringify({
        redirect_uris: [],
        allowlists: { serviceability: { deny: ['perfmonOpenSession', 'soapGetStaticServiceList'] } },
        rateLimits: {},
      }),
    );
    s = await startProductStack({ stateDir: state.dir });
    cucm = s.node('cucm');
  });
  after(async () => {
    await s?.stop();
    state.cleanup();
  });

  it('the default auditor profile sends every operation of a described listing and a sampled query', async () => {
    const from = s.lab.state.log.requests.length;
    await s.ok('auditor', 'cucm_perfmon_list_counters', {
      host: cucm.name,
      object: 'Memory',
      instances: true,
    });
    await s.ok('auditor', 'cucm_perfmon_query', {
      host: cucm.name,
      object: 'Processor',
      counters: ['% CPU Time'],
      instances: ['_Total'],
      sample_interval_seconds: 1,
    });
    await s.ok('auditor', 'cucm_service_status', { host: cucm.name, with_specifications: true });
    const sentOps = new Set(s.serviceabilityOps(from).map((o) => o.replace(/^\w+\./, '')));
    for (const op of [
      'perfmonListCounter',
      'perfmonQueryCounterDescription',
      'perfmonCollectCounterData',
      'perfmonOpenSession',
      'perfmonAddCounter',
      'perfmonCollectSessionData',
      'perfmonCloseSession',
      'soapGetServiceStatus',
      'soapGetStaticServiceList',
    ])
      assert.ok(sentOps.has(op), `${op} in ${[...sentOps].join(', ')}`);
  });

  it('a client denied perfmonOpenSession reads plain counters but is refused a sampled one before the session opens', async () => {
    await s.ok('operator', 'cucm_perfmon_query', {
      host: cucm.name,
      object: 'Cisco CallManager',
      counters: ['CallsActive'],
    });
    const mark = s.mark();
    const from = s.lab.state.log.requests.length;
    const r = await s.fails('operator', 'cucm_perfmon_query', {
      host: cucm.name,
      object: 'Processor',
      counters: ['% CPU Time'],
      instances: ['_Total'],
      sample_interval_seconds: 1,
    });
    assert.equal(r.error, 'ProfilePermissionError');
    assert.match(r.message, /does not allow SERVICEABILITY perfmonOpenSession/);
    assert.deepEqual(
      s.serviceabilityOps(from),
      ['PerfmonService.perfmonCollectCounterData'],
      'no session was opened',
    );
    const [outcome] = actionOutcomes(s.auditSince(mark)).filter((a) => a.tool_name === 'cucm_perfmon_query');
    assert.equal(outcome?.result, 'DENIED');
    assert.deepEqual(outcome?.denied_requests, [
      { service: 'serviceability', operation: 'perfmonOpenSession' },
    ]);
  });

  it('a client denied soapGetStaticServiceList is refused the specifications for every node, not per node', async () => {
    await s.ok('operator', 'cucm_service_status', { host: cucm.name });
    const from = s.lab.state.log.requests.length;
    const r = await s.fails('operator', 'cucm_service_status', {
      host: cucm.name,
      nodes: ['cucm-nowhere'],
      with_specifications: true,
    });
    assert.equal(r.error, 'ProfilePermissionError');
    assert.ok(!s.serviceabilityOps(from).includes('ControlCenterServices.soapGetStaticServiceList'));
  });
});
