import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BadRequestError } from '../../../../kernel/sdk/index.ts';
import { extraPhoneName } from '../../../../lab/cucm/topology.ts';
import type { RisService } from '../../../../plugins/cucm/ris/ris-service.ts';
import { startRisLab } from './helpers.ts';
import type { RisLab } from './helpers.ts';

const PHONES = 2500;
// Every bulk phone, every tenth also reported (UnRegistered) by its other node; demo phone 1 by both
// nodes; the SIP trunk by both nodes.
const RECORDS = PHONES + PHONES / 10 + 5 + 2;
const DEVICES = PHONES + 4 + 1;

describe('RisPort70 queries: paging and de-duplication (2,500 phones, 1,000 per answer)', () => {
  let r: RisLab;
  let ris: RisService;
  before(async () => {
    r = await startRisLab({ extraPhones: PHONES, risMaxDevicesPerAnswer: 1000, risRateLimitPerMinute: 1000 });
    ris = await r.ready({ perMinute: 1000 });
  });
  after(() => r.stop());

  it('pages with StateInfo until done and returns every device exactly once', async () => {
    const before = r.risRequests();
    const a = await ris.queryEndpoint(
      r.node,
      { operation: 'selectCmDeviceExt', maxDevices: 10_000, maxRequests: 10 },
      { owner: 'alice' },
    );
    assert.equal(a.complete, true);
    assert.equal(a.state_info, undefined);
    assert.equal(a.stopped_because, undefined);
    assert.equal(a.answer_shape, 'cucm15');
    assert.equal(a.requests, 3);
    assert.equal(r.risRequests() - before, 3, 'the lab saw the same three requests');
    assert.equal(a.records_read, RECORDS);
    assert.equal(a.devices_returned, DEVICES);
    assert.equal(a.duplicates_merged, RECORDS - DEVICES);
    const names = a.devices.map((d) => d.name);
    assert.equal(new Set(names).size, names.length, 'no device twice');
    for (let i = 1; i <= PHONES; i++) assert.ok(names.includes(extraPhoneName(i)), extraPhoneName(i));
    // Even phones live on the publisher, odd ones on the subscriber, which also holds the stale records
    // of every tenth (even) phone; demo phones 1 and 3 and the trunk on the publisher, 1, 2, 4 and the
    // trunk on the subscriber.
    assert.deepEqual(
      a.nodes.map((n) => [n.name, n.records_read, n.records_found]),
      [
        ['cucm-pub', PHONES / 2 + 3, PHONES / 2 + 3],
        ['cucm-sub1', PHONES / 2 + PHONES / 10 + 4, PHONES / 2 + PHONES / 10 + 4],
      ],
    );
    assert.equal(
      a.nodes.reduce((s, n) => s + n.devices, 0),
      DEVICES,
    );
    assert.deepEqual(a.by_status, { Registered: DEVICES - PHONES / 50 - 1, UnRegistered: PHONES / 50 + 1 });
  });

  it('keeps the most useful record of a device several nodes report, and lists the others', async () => {
    const a = await ris.queryEndpoint(
      r.node,
      {
        operation: 'selectCmDevice',
        criteria: { selectItems: ['SEP0A1B2C3D4E01', extraPhoneName(10), extraPhoneName(50), 'SIP_TO_SBC'] },
      },
      { owner: 'alice' },
    );
    const by = new Map(a.devices.map((d) => [d.name, d]));
    assert.equal(a.devices_returned, 4);
    assert.equal(a.records_read, 8);
    const moved = by.get('SEP0A1B2C3D4E01');
    assert.equal(moved?.node, 'cucm-sub1');
    assert.equal(moved?.status, 'Registered');
    assert.deepEqual(moved?.status_reason, { code: 0, meaning: 'registered (no unregistration reason)' });
    assert.deepEqual(moved?.ip_addresses, ['10.10.30.11']);
    assert.deepEqual(moved?.dir_numbers, ['1001']);
    assert.equal(moved?.login_user_id, 'jsmith');
    assert.equal(moved?.protocol, 'SIP');
    assert.match(moved?.timestamp ?? '', /^\d{4}-\d\d-\d\dT/);
    assert.deepEqual(
      moved?.also_reported_by?.map((o) => [o.node, o.status, o.status_reason]),
      [['cucm-pub', 'UnRegistered', 9]],
    );
    // Phone 10: registered at home (publisher), a stale record on the subscriber.
    assert.equal(by.get(extraPhoneName(10))?.node, 'cucm-pub');
    assert.equal(by.get(extraPhoneName(10))?.status, 'Registered');
    // Phone 50: unregistered everywhere; the newer record (keep-alive timeout at home) wins.
    const lost = by.get(extraPhoneName(50));
    assert.deepEqual(
      [lost?.node, lost?.status, lost?.status_reason.code, lost?.status_reason.meaning],
      ['cucm-pub', 'UnRegistered', 13, 'keep-alive timeout'],
    );
    assert.equal(by.get('SIP_TO_SBC')?.device_class, 'SIPTrunk');
    assert.equal(by.get('SIP_TO_SBC')?.also_reported_by?.length, 1);
  });

  it('stops at max_requests with a cursor, and the continuation returns the rest without repeats', async () => {
    const q = { operation: 'selectCmDevice' as const, maxDevices: 10_000, maxRequests: 1 };
    const first = await ris.queryEndpoint(r.node, q, { owner: 'alice', host: 'cucm-pub.example' });
    assert.equal(first.complete, false);
    assert.equal(first.stopped_because, 'max_requests');
    assert.equal(first.requests, 1);
    assert.equal(first.records_read, 1000);
    assert.ok(first.state_info);
    const rest = await ris.queryEndpoint(
      r.node,
      { ...q, maxRequests: 10, stateInfo: first.state_info },
      { owner: 'alice', host: 'cucm-pub.example' },
    );
    assert.equal(rest.complete, true);
    assert.equal(rest.dedupe_across_calls, true);
    assert.equal(rest.requests, 2);
    assert.equal(first.records_read + rest.records_read, RECORDS);
    const seen = new Set(first.devices.map((d) => d.name));
    const repeated = rest.devices.filter((d) => seen.has(d.name));
    // The publisher's pages come first: demo phone 1's stale record there is superseded by the
    // subscriber's Registered one, returned again and marked; no other device comes twice.
    assert.deepEqual(
      repeated.map((d) => [d.name, d.node, d.replaces_earlier]),
      [['SEP0A1B2C3D4E01', 'cucm-sub1', true]],
    );
    assert.ok(rest.devices.filter((d) => !seen.has(d.name)).every((d) => d.replaces_earlier === undefined));
    assert.equal(new Set([...seen, ...rest.devices.map((d) => d.name)]).size, DEVICES);
  });

  it('asks no more than max_devices leaves room for, so no page is cut', async () => {
    const q = { operation: 'selectCmDevice' as const, maxDevices: 1500, maxRequests: 10 };
    const first = await ris.queryEndpoint(r.node, q, { owner: 'alice' });
    assert.equal(first.complete, false);
    assert.equal(first.stopped_because, 'max_devices');
    assert.equal(first.devices_returned, 1500);
    const rest = await ris.queryEndpoint(
      r.node,
      { ...q, maxDevices: 10_000, stateInfo: first.state_info },
      { owner: 'alice' },
    );
    assert.equal(rest.complete, true);
    assert.equal(first.records_read + rest.records_read, RECORDS);
    assert.equal(new Set([...first.devices, ...rest.devices].map((d) => d.name)).size, DEVICES);
  });

  it('refuses a cursor used for another query or by another caller', async () => {
    const first = await ris.queryEndpoint(
      r.node,
      { operation: 'selectCmDevice', maxRequests: 1 },
      { owner: 'alice' },
    );
    assert.ok(first.state_info);
    await assert.rejects(
      ris.queryEndpoint(
        r.node,
        { operation: 'selectCmDevice', criteria: { status: 'Registered' }, stateInfo: first.state_info },
        { owner: 'alice' },
      ),
      (err: unknown) => err instanceof BadRequestError && /another query/.test(err.message),
    );
    await assert.rejects(
      ris.queryEndpoint(
        r.node,
        { operation: 'selectCmDevice', stateInfo: first.state_info },
        { owner: 'bob' },
      ),
      BadRequestError,
    );
    await assert.rejects(
      ris.queryEndpoint(r.node, { operation: 'selectCmDevice', stateInfo: 'bm9wZQ' }, { owner: 'alice' }),
      BadRequestError,
    );
  });

  it('sends hostile select items as text: an injected "*" item selects nothing', async () => {
    const before = r.risRequests();
    const a = await ris.queryEndpoint(
      r.node,
      {
        operation: 'selectCmDevice',
        criteria: { selectItems: ['</soap:Item></soap:item><soap:item><soap:Item>*', 'a&b<c>'] },
      },
      { owner: 'alice' },
    );
    assert.equal(r.risRequests() - before, 1);
    assert.equal(r.lab.state.log.requests.at(-1)?.status, 200, 'the node parsed the request');
    assert.equal(a.complete, true);
    assert.equal(a.devices_returned, 0);
  });

  it('passes the criteria: status, select_by DirNumber, node name, device class', async () => {
    const unreg = await ris.queryEndpoint(
      r.node,
      { operation: 'selectCmDevice', criteria: { status: 'UnRegistered', selectItems: ['SEP0A1B2C3D4E0*'] } },
      { owner: 'alice' },
    );
    assert.deepEqual(unreg.devices.map((d) => `${d.name}@${d.node}`).sort(), [
      'SEP0A1B2C3D4E01@cucm-pub',
      'SEP0A1B2C3D4E04@cucm-sub1',
    ]);
    assert.deepEqual(unreg.devices.find((d) => d.name === 'SEP0A1B2C3D4E04')?.status_reason, {
      code: 6,
      meaning: 'connectivity error',
    });
    const dn = await ris.queryEndpoint(
      r.node,
      { operation: 'selectCmDevice', criteria: { selectBy: 'DirNumber', selectItems: ['1003'] } },
      { owner: 'alice' },
    );
    assert.deepEqual(
      dn.devices.map((d) => d.name),
      ['SEP0A1B2C3D4E03'],
    );
    const sub = await ris.queryEndpoint(
      r.node,
      { operation: 'selectCmDevice', criteria: { nodeName: 'cucm-sub1', deviceClass: 'SIPTrunk' } },
      { owner: 'alice' },
    );
    assert.deepEqual(
      sub.devices.map((d) => [d.name, d.node]),
      [['SIP_TO_SBC', 'cucm-sub1']],
    );
  });
});

describe('RisPort70 queries: legacy answer shape', () => {
  let r: RisLab;
  before(async () => {
    r = await startRisLab({
      extraPhones: 30,
      risMaxDevicesPerAnswer: 10,
      risResponseShape: 'legacy',
      risRateLimitPerMinute: 1000,
    });
  });
  after(() => r.stop());

  it('reads answers without selectCmDeviceReturn and pages them the same way', async () => {
    const ris = await r.ready({ perMinute: 1000 });
    const a = await ris.queryEndpoint(
      r.node,
      { operation: 'selectCmDeviceExt', maxRequests: 15, criteria: { maxReturnedDevices: 2000 } },
      { owner: 'alice' },
    );
    assert.equal(a.answer_shape, 'legacy');
    assert.equal(a.complete, true);
    assert.equal(a.records_read, 30 + 3 + 5 + 2);
    assert.equal(a.devices_returned, 35);
    assert.equal(a.requests, 4, '40 records, 10 per answer although 2,000 were asked');
  });
});
