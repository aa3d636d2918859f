// `*_list_axl_operations` with `operation` through a real MCP client against the lab: each request
// field says whether it must be sent (minOccurs, choices) and which values an enumerated one takes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  prepareCucm,
  prepareNode,
  startProductStack,
  type ProductStack,
} from '../../helpers/product-stack.ts';

interface Field {
  name: string;
  required?: boolean;
  choice?: { of: string[]; required: boolean };
  enumeration?: string[];
  enumeration_total?: number;
  children?: Field[];
}

const field = (fields: unknown, name: string): Field => {
  const f = (fields as Field[]).find((x) => x.name === name);
  assert.ok(f, `no field ${name}`);
  return f;
};

describe('list_axl_operations describes required fields, choices and enumerations', () => {
  let s: ProductStack;
  before(async () => {
    s = await startProductStack();
    await prepareCucm(s);
    await prepareNode(s, 'imp');
  });
  after(async () => {
    await s.stop();
  });

  it('cucm: addPhone, getLine, doDeviceReset and listRoutePattern', async () => {
    const host = s.node('cucm').name;
    await s.ok('admin', 'cucm_download_axl_toolkit', { host });
    const add = await s.ok('auditor', 'cucm_list_axl_operations', { operation: 'addPhone', depth: 2 });
    const phone = field(add.request_fields, 'phone');
    assert.equal(phone.required, true);
    const kids = phone.children ?? [];
    assert.equal(field(kids, 'name').required, true);
    assert.equal(field(kids, 'description').required, false);
    assert.ok(field(kids, 'product').enumeration?.includes('Cisco 8865'), 'products are enumerated');
    assert.ok(field(kids, 'protocol').enumeration?.includes('SIP'));

    const get = await s.ok('auditor', 'cucm_list_axl_operations', { operation: 'getLine' });
    const uuid = field(get.request_fields, 'uuid');
    assert.equal(uuid.required, false, 'an alternative of a choice is optional on its own');
    assert.deepEqual(uuid.choice, { of: ['uuid', 'pattern', 'routePartitionName'], required: true });
    assert.equal(field(get.request_fields, 'returnedTags').required, false);

    const reset = await s.ok('auditor', 'cucm_list_axl_operations', { operation: 'doDeviceReset' });
    assert.equal(field(reset.request_fields, 'deviceName').required, true);
    assert.deepEqual(field(reset.request_fields, 'isHardReset').choice, {
      of: ['isHardReset', 'deviceResetType'],
      required: true,
    });

    const list = await s.ok('auditor', 'cucm_list_axl_operations', { operation: 'listRoutePattern' });
    assert.equal(field(list.request_fields, 'searchCriteria').required, true);
    assert.equal(field(list.request_fields, 'skip').required, false);
  });

  it('imp: the same facts for the presence operations', async () => {
    const host = s.node('imp').name;
    await s.ok('admin', 'imp_download_axl_toolkit', { host });
    const d = await s.ok('auditor', 'imp_list_axl_operations', {
      host,
      operation: 'addPresenceRedundancyGroup',
      depth: 2,
    });
    const group = field(d.request_fields, 'presenceRedundancyGroup');
    assert.equal(group.required, true);
    assert.equal(field(group.children, 'name').required, true);
    assert.equal(field(group.children, 'description').required, false);
  });
});
