// cucm_risport_query kind cti (selectCtiItem) end to end through real MCP clients against the lab's
// RisPort70, and the per-node return_code over several pages of a devices query.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LabNodeInfo } from '../../../lab/index.ts';
import { actionOutcomes } from '../../helpers/kernel.ts';
import { prepareCucm, startProductStack, type ProductStack } from '../../helpers/product-stack.ts';

interface Cti {
  node: string;
  app_id: string;
  user_id: string;
  app_status: string;
  device?: { name: string; status: string };
  line?: { dir_number: string; status: string };
}

describe('cucm_risport_query: CTI items and per-node return codes through MCP', () => {
  let s: ProductStack;
  let cucm: LabNodeInfo;
  before(async () => {
    s = await startProductStack({ lab: { extraPhones: 30, risMaxDevicesPerAnswer: 10 } });
    cucm = await prepareCucm(s);
    await s.ok('admin', 'cucm_download_ris_toolkit', { host: cucm.name });
  });
  after(async () => {
    await s.stop();
  });

  it('lists CTI providers per node, audited as selectCtiItem', async () => {
    const mark = s.mark();
    const r = await s.ok('auditor', 'cucm_risport_query', { host: cucm.name, kind: 'cti' });
    assert.equal(r.operation, 'selectCtiItem');
    assert.equal(r.complete, true);
    const items = r.cti_items as Cti[];
    assert.deepEqual(items.map((i) => [i.node, i.app_id, i.user_id, i.app_status]).sort(), [
      ['cucm-pub', 'Jabber', 'mlee', 'Open'],
      ['cucm-sub1', 'Jabber', 'jsmith', 'Open'],
    ]);
    assert.deepEqual(r.by_status, { Open: 2 });
    const rec = actionOutcomes(s.auditSince(mark)).find((x) => x.tool_name === 'cucm_risport_query');
    assert.equal(rec?.result, 'ALLOWED');
    assert.equal(rec?.operation, 'selectCtiItem');
  });

  it('lists the devices and lines applications control, filtered, paged with state_info', async () => {
    const lines = await s.ok('auditor', 'cucm_risport_query', {
      host: cucm.name,
      kind: 'cti',
      cti_class: 'Line',
      dir_numbers: ['1003'],
    });
    const line = (lines.cti_items as Cti[])[0];
    assert.equal(line?.line?.dir_number, '1003');
    assert.equal(line?.device?.name, 'SEP0A1B2C3D4E03');
    const seen: string[] = [];
    let stateInfo: string | undefined;
    for (let i = 0; i < 5; i++) {
      const r = await s.ok('auditor', 'cucm_risport_query', {
        host: cucm.name,
        kind: 'cti',
        cti_class: 'Device',
        max_returned_devices: 1,
        max_requests: 1,
        ...(stateInfo ? { state_info: stateInfo } : {}),
      });
      seen.push(...(r.cti_items as Cti[]).map((x) => x.device?.name ?? ''));
      stateInfo = r.state_info as string | undefined;
      if (r.complete) break;
    }
    assert.equal(stateInfo, undefined);
    assert.deepEqual(seen.sort(), ['SEP0A1B2C3D4E01', 'SEP0A1B2C3D4E02', 'SEP0A1B2C3D4E03']);
    const other = await s.fails('auditor', 'cucm_risport_query', {
      host: cucm.name,
      kind: 'cti',
      cti_class: 'Line',
      state_info: (
        await s.ok('auditor', 'cucm_risport_query', {
          host: cucm.name,
          kind: 'cti',
          cti_class: 'Device',
          max_returned_devices: 1,
          max_requests: 1,
        })
      ).state_info as string,
    });
    assert.equal(other.error, 'BAD_REQUEST');
  });

  it('without kind, the query is the devices query it always was', async () => {
    const r = await s.ok('auditor', 'cucm_risport_query', {
      host: cucm.name,
      max_devices: 1000,
      max_requests: 10,
    });
    assert.equal(r.operation, 'selectCmDeviceExt');
    assert.equal(r.cti_items, undefined);
    assert.ok((r.devices_returned as number) >= 30);
    // Ten records an answer: each node said NotFound on some page, and is still Ok for the query.
    const nodes = r.nodes as { name: string; return_code: string; return_codes?: string[] }[];
    assert.ok((r.requests as number) > 3);
    for (const n of nodes) {
      assert.equal(n.return_code, 'Ok', n.name);
      assert.ok(n.return_codes?.includes('NotFound'), `${n.name}: ${JSON.stringify(n.return_codes)}`);
    }
  });
});
