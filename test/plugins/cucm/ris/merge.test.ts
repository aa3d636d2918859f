import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BadRequestError } from '../../../../kernel/sdk/index.ts';
import { ContinuationStore, decodeCursor, encodeCursor } from '../../../../plugins/cucm/ris/continuation.ts';
import type { RisDevice } from '../../../../plugins/cucm/ris/devices.ts';
import { DeviceMerger } from '../../../../plugins/cucm/ris/devices.ts';
import { statusReason } from '../../../../plugins/cucm/ris/status-reasons.ts';

function device(name: string, node: string, status: string, reason: number, epoch: number): RisDevice {
  return {
    name,
    node,
    status,
    status_reason: statusReason(String(reason)),
    ip_addresses: [],
    dir_numbers: [],
    model: null,
    device_class: 'Phone',
    protocol: 'SIP',
    description: '',
    login_user_id: null,
    active_load: null,
    timestamp: new Date(epoch * 1000).toISOString(),
    timestamp_epoch: epoch,
  };
}

describe('de-duplication across nodes', () => {
  it('keeps Registered over a newer UnRegistered, then the newest, listing the other records', () => {
    const m = new DeviceMerger();
    m.add(device('SEPA', 'pub', 'UnRegistered', 9, 2000));
    m.add(device('sepa', 'sub', 'Registered', 0, 1000));
    m.add(device('SEPB', 'pub', 'UnRegistered', 13, 1500));
    m.add(device('SEPB', 'sub', 'UnRegistered', 9, 1000));
    m.add(device('SEPC', 'sub', 'Rejected', 16, 100));
    const byName = new Map(m.devices().map((d) => [d.name.toUpperCase(), d]));
    assert.equal(m.records, 5);
    assert.equal(m.size, 3);
    assert.equal(byName.get('SEPA')?.node, 'sub');
    assert.deepEqual(byName.get('SEPA')?.also_reported_by, [
      { node: 'pub', status: 'UnRegistered', status_reason: 9, timestamp: new Date(2_000_000).toISOString() },
    ]);
    assert.equal(byName.get('SEPB')?.node, 'pub', 'same status: the newest record wins');
    assert.equal(byName.get('SEPB')?.also_reported_by?.[0]?.node, 'sub');
    assert.equal(byName.get('SEPC')?.also_reported_by, undefined);
  });

  it('against earlier calls: drops records no better than what was returned, returns better ones marked', () => {
    const first = new DeviceMerger();
    first.add(device('SEPA', 'pub', 'UnRegistered', 9, 2000));
    first.add(device('SEPB', 'pub', 'Registered', 0, 2000));
    const second = new DeviceMerger(first.scores());
    second.add(device('SEPB', 'sub', 'UnRegistered', 9, 1000));
    second.add(device('SEPA', 'sub', 'Registered', 0, 1000));
    second.add(device('SEPD', 'sub', 'Registered', 0, 1000));
    assert.deepEqual(
      second.devices().map((d) => [d.name, d.node, d.replaces_earlier ?? false]),
      [
        ['SEPA', 'sub', true],
        ['SEPD', 'sub', false],
      ],
    );
    assert.equal(second.droppedAsEarlier, 1);
  });
});

describe('continuation cursors', () => {
  it('round-trip and refuse anything else', () => {
    const c = encodeCursor('id1', '<StateInfo/>', 'fp');
    assert.deepEqual(decodeCursor(c), { id: 'id1', stateInfo: '<StateInfo/>', fingerprint: 'fp' });
    assert.throws(() => decodeCursor('not a cursor'), BadRequestError);
    assert.throws(() => decodeCursor(Buffer.from('{"v":2}').toString('base64url')), BadRequestError);
  });

  it('hold what was returned per owner only', () => {
    const store = new ContinuationStore();
    const id = store.save('alice', undefined, new Map([['SEPA', 5]]));
    assert.deepEqual(store.get('alice', id), new Map([['SEPA', 5]]));
    assert.equal(store.get('bob', id), undefined);
    const again = store.save('alice', id, new Map([['SEPB', 1]]));
    assert.equal(again, id);
    assert.equal(store.get('alice', id)?.size, 2);
    store.drop(id);
    assert.equal(store.get('alice', id), undefined);
  });
});
