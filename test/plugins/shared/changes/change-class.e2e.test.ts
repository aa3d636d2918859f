// The change table through real MCP clients against the lab: *_list_axl_operations shows each operation's
// class beside the unchanged list of names, every result of the write-capable tools (*_axl_call,
// cuc_cupi_call, *_os_run_command, *_service_control) carries the call's change_class, their descriptions
// say so, and infra_get_my_permissions shows each profile's writes setting.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LabNodeInfo } from '../../../../lab/index.ts';
import { CHANGE_CLASS_NOTE } from '../../../../plugins/_shared/changes/classify.ts';
import { prepareNode, startProductStack, type ProductStack } from '../../../helpers/product-stack.ts';

describe('change classes through MCP', () => {
  let s: ProductStack;
  let cucm: LabNodeInfo;
  let cuc: LabNodeInfo;
  before(async () => {
    s = await startProductStack();
    cucm = await prepareNode(s, 'cucm');
    cuc = await prepareNode(s, 'cuc');
  });
  after(async () => {
    await s.stop();
  });

  it('list_axl_operations gives every listed operation its class, and the described one its own', async () => {
    const listed = await s.ok('auditor', 'cucm_list_axl_operations', { pattern: 'Phone' });
    const ops = listed.operations as string[];
    assert.ok(
      ops.every((o) => typeof o === 'string'),
      'operations stays a list of names',
    );
    const classes = listed.change_classes as Record<string, string>;
    assert.deepEqual(Object.keys(classes).sort(), [...ops].sort(), 'one class per listed operation');
    assert.equal(classes.getPhone, 'read');
    assert.equal(classes.listPhone, 'read');
    assert.equal(classes.addPhone, 'change');
    assert.equal(classes.updatePhone, 'change');
    assert.equal(classes.removePhone, 'destructive');
    assert.equal(classes.resetPhone, 'destructive');
    const described = await s.ok('auditor', 'cucm_list_axl_operations', { operation: 'removePhone' });
    assert.equal(described.change_class, 'destructive');
    assert.ok(Array.isArray(described.request_fields));
  });

  it('each axl_call result carries the class of its operation', async () => {
    const host = cucm.name;
    const phone = {
      name: 'SEP00C1A5500001',
      product: 'Cisco 8865',
      class: 'Phone',
      protocol: 'SIP',
      devicePoolName: 'Default',
    };
    // The operator's profile confirms every change (writes: confirm): previewed, then sent with the plan_id.
    const add = { host, operation: 'addPhone', args: { phone } };
    const added = await s.ok('operator', 'cucm_axl_call', await s.plan('operator', 'cucm_axl_call', add));
    assert.equal(added.change_class, 'change');
    const got = await s.ok('auditor', 'cucm_axl_call', {
      host,
      operation: 'getPhone',
      args: { name: phone.name },
    });
    assert.equal(got.change_class, 'read');
    // A seeded phone whose answer is over 1 KiB.
    const big = { host, operation: 'getPhone', args: { name: 'SEP0A1B2C3D4E01' }, max_bytes: 512 };
    const held = await s.ok('auditor', 'cucm_axl_call', big);
    assert.ok(held.partial_json && held.cursor, 'an answer over max_bytes comes in slices');
    assert.equal(held.change_class, 'read');
    const slice = await s.ok('auditor', 'cucm_axl_call', { ...big, cursor: held.cursor });
    assert.equal(slice.change_class, 'read', 'a further slice too');
    const list = {
      host,
      operation: 'listPhone',
      args: { searchCriteria: { name: 'SEP%' }, returnedTags: { name: '' } },
      first: 1,
    };
    const rows = await s.ok('auditor', 'cucm_axl_call', list);
    assert.equal(rows.change_class, 'read');
    assert.ok(rows.cursor, 'a paged answer');
    const next = await s.ok('auditor', 'cucm_axl_call', { ...list, cursor: rows.cursor });
    assert.equal(next.change_class, 'read', 'a continued answer too');
    const remove = { host, operation: 'removePhone', args: { name: phone.name } };
    const removed = await s.ok(
      'operator',
      'cucm_axl_call',
      await s.plan('operator', 'cucm_axl_call', remove),
    );
    assert.equal(removed.change_class, 'destructive');
  });

  it('each cupi_call result carries the class of its method and path', async () => {
    const host = cuc.name;
    const read = await s.ok('auditor', 'cuc_cupi_call', { host, method: 'GET', path: '/vmrest/users' });
    assert.equal(read.change_class, 'read');
    const created = await s.ok('admin', 'cuc_cupi_call', {
      host,
      method: 'POST',
      path: '/vmrest/users',
      query: { templateAlias: 'voicemailusertemplate' },
      body: { Alias: 'class.user', DtmfAccessId: '7791' },
    });
    assert.equal(created.change_class, 'change');
    const path = String(created.location_path);
    const updated = await s.ok('admin', 'cuc_cupi_call', {
      host,
      method: 'PUT',
      path,
      body: { DisplayName: 'Class User' },
    });
    assert.equal(updated.change_class, 'change');
    // Destructive: the admin's profile too needs the plan_id of a preview.
    const newPin = { host, method: 'PUT', path: `${path}/credential/pin`, body: { Credentials: '80417263' } };
    const pin = await s.ok('admin', 'cuc_cupi_call', await s.plan('admin', 'cuc_cupi_call', newPin));
    assert.equal(pin.change_class, 'destructive', 'a replaced PIN cannot be put back');
    const remove = { host, method: 'DELETE', path };
    const deleted = await s.ok('admin', 'cuc_cupi_call', await s.plan('admin', 'cuc_cupi_call', remove));
    assert.equal(deleted.change_class, 'destructive');
  });

  it('each os_run_command and service_control result carries the class of its command or action', async () => {
    const host = cucm.name;
    const show = await s.ok('auditor', 'cucm_os_run_command', { host, command: 'show version active' });
    assert.equal(show.change_class, 'read');
    const trace = await s.ok('admin', 'cucm_os_run_command', {
      host,
      command: 'set trace enable Detailed cdpmib',
    });
    assert.equal(trace.change_class, 'change');
    const args = { host, services: ['Cisco Tftp'] };
    const stop = await s.plan('admin', 'cucm_service_control', { ...args, action: 'stop' });
    const stopped = await s.ok('admin', 'cucm_service_control', stop);
    assert.equal(stopped.change_class, 'destructive');
    const started = await s.ok('admin', 'cucm_service_control', { ...args, action: 'start' });
    assert.equal(started.change_class, 'change');
  });

  it('the write-capable tools describe the classes, and each profile shows its writes setting', async () => {
    const { tools } = await s.mcp.admin.client.listTools();
    for (const name of [
      'cucm_axl_call',
      'imp_axl_call',
      'cuc_cupi_call',
      'cucm_os_run_command',
      'imp_os_run_command',
      'cuc_os_run_command',
      'cucm_service_control',
      'imp_service_control',
      'cuc_service_control',
    ]) {
      const tool = tools.find((t) => t.name === name);
      assert.ok(tool?.description?.includes(CHANGE_CLASS_NOTE), `${name} describes the classes`);
      assert.match(
        JSON.stringify(tool?.outputSchema),
        /"change_class":\{"type":"string","enum":\["read","change","destructive"\]\}/,
        `${name} publishes change_class in its output schema`,
      );
    }
    const expected = { admin: 'direct', operator: 'confirm', auditor: 'preview-only' } as const;
    for (const [role, writes] of Object.entries(expected)) {
      const m = await s.ok(role as keyof typeof expected, 'infra_get_my_permissions');
      assert.equal(m.writes, writes, role);
    }
  });
});
