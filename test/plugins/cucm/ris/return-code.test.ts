// A node's ReturnCode in the answer summarises the whole query over every StateInfo page: a node whose
// devices all came on the first page answers NotFound on the last one, and is still Ok for the query.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { RisService } from '../../../../plugins/cucm/ris/ris-service.ts';
import { startRisLab, type RisLab } from './helpers.ts';

describe('RisPort70 per-node return_code over several pages', () => {
  let r: RisLab;
  let ris: RisService;
  before(async () => {
    r = await startRisLab({ extraPhones: 30, risMaxDevicesPerAnswer: 10, risRateLimitPerMinute: 1000 });
    ris = await r.ready({ perMinute: 1000 });
  });
  after(() => r.stop());

  it('is Ok for every node that had devices on any page, listing the codes its pages gave', async () => {
    const a = await ris.queryEndpoint(
      r.node,
      { operation: 'selectCmDeviceExt', maxDevices: 1000, maxRequests: 20 },
      { owner: 'alice' },
    );
    assert.equal(a.complete, true);
    assert.ok(a.requests >= 4, `${a.requests} requests`);
    for (const n of a.nodes) {
      assert.ok(n.records_read > 0, n.name);
      assert.equal(n.return_code, 'Ok', `${n.name}: ${JSON.stringify(n.return_codes)}`);
      // The lab, like a node, says NotFound on the pages where a node had nothing left (or not yet).
      assert.deepEqual(n.return_codes?.slice().sort(), ['NotFound', 'Ok'], n.name);
    }
  });

  it('is NotFound only for a node that had no device on any page', async () => {
    const a = await ris.queryEndpoint(
      r.node,
      {
        operation: 'selectCmDeviceExt',
        criteria: { nodeName: 'cucm-pub' },
        maxDevices: 1000,
        maxRequests: 20,
      },
      { owner: 'alice' },
    );
    assert.equal(a.complete, true);
    const by = new Map(a.nodes.map((n) => [n.name, n]));
    assert.equal(by.get('cucm-pub')?.return_code, 'Ok');
    assert.equal(by.get('cucm-sub1')?.return_code, 'NotFound');
    assert.equal(by.get('cucm-sub1')?.records_read, 0);
    assert.equal(by.get('cucm-sub1')?.return_codes, undefined, 'one code on every page: no list');
  });

  it('says complete: false with a coded reason when the devices of a node changed between its pages', async () => {
    const query = { operation: 'selectCmDeviceExt' as const, maxDevices: 1000, maxRequests: 1 };
    const first = await ris.queryEndpoint(r.node, query, { owner: 'bob' });
    assert.ok(first.state_info);
    assert.equal(first.incomplete, undefined);
    // Another administrator deletes a phone the publisher already reported: its later records move up.
    const reported = first.devices.find((d) => d.node === 'cucm-pub' && d.name.startsWith('SEP'));
    assert.ok(reported);
    const saved = r.lab.state.cucm.ris.registrations.get(reported.name);
    r.lab.state.cucm.ris.registrations.delete(reported.name);
    try {
      let a = await ris.queryEndpoint(r.node, { ...query, stateInfo: first.state_info }, { owner: 'bob' });
      for (let i = 0; i < 10 && a.state_info; i++)
        a = await ris.queryEndpoint(r.node, { ...query, stateInfo: a.state_info }, { owner: 'bob' });
      assert.equal(a.state_info, undefined, 'nothing left to continue');
      assert.equal(a.complete, false);
      assert.equal(a.incomplete?.code, 'ROWS_SHIFTED');
      assert.match(a.incomplete?.reason ?? '', /cucm-pub from \d+ to \d+/);
    } finally {
      if (saved) r.lab.state.cucm.ris.registrations.set(reported.name, saved);
    }
  });
});
