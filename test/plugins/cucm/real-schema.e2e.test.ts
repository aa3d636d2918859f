// The real Cisco AXL 15.0 schema (when the fixtures sit beside the checkout) through the CUCM tools: the
// lab serves it in its toolkit zip, cucm_download_axl_toolkit caches it, the tools use it. The lab's own
// schema covers the same tools in axl.e2e.test.ts on a fresh clone.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixture } from '../../lab/helpers.ts';
import { prepareCucm, startProductStack, type ProductStack } from '../../helpers/product-stack.ts';

const schemaDir = fixture('cucm-axl-schema', '15.0');

describe('cucm AXL tools with the real 15.0 schema', () => {
  let s: ProductStack | undefined;
  before(async () => {
    if (!schemaDir) return;
    s = await startProductStack({ lab: { axlSchemaDir: schemaDir } });
    await prepareCucm(s);
  });
  after(async () => {
    await s?.stop();
  });

  it('downloads, lists, describes and calls with the real schema', async (t) => {
    if (!s) {
      const reason = 'the Cisco fixtures (../shared/fixtures) are absent on a fresh clone';
      console.log(`skip: ${reason}`);
      t.skip(reason);
      return;
    }
    const host = s.node('cucm').name;
    const dl = await s.ok('admin', 'cucm_download_axl_toolkit', { host });
    assert.ok((dl.cached_versions as string[]).includes('15.0'));
    const all = await s.ok('auditor', 'cucm_list_axl_operations', { host });
    assert.ok((all.count as number) > 950, `${String(all.count)} operations`);
    // Every operation of the real schema, as the product parses it, has its class from the change table.
    const classes = all.change_classes as Record<string, string>;
    assert.deepEqual(Object.keys(classes).sort(), [...(all.operations as string[])].sort());
    assert.deepEqual(
      [classes.getPhone, classes.addPhone, classes.doLdapSync],
      ['read', 'change', 'destructive'],
    );
    const sip = await s.ok('auditor', 'cucm_list_axl_operations', { version: '15.0', pattern: 'SipTrunk' });
    assert.ok((sip.operations as string[]).includes('addSipTrunk'));
    const described = await s.ok('auditor', 'cucm_list_axl_operations', { operation: 'addPhone', depth: 2 });
    const phone = (described.request_fields as { name: string; children?: { name: string }[] }[]).find(
      (f) => f.name === 'phone',
    );
    for (const f of ['name', 'product', 'class', 'protocol', 'devicePoolName', 'lines'])
      assert.ok(
        phone?.children?.some((c) => c.name === f),
        f,
      );
    // What only the XSD says: required fields and enumerations (XProduct has hundreds of values).
    const kids = (phone?.children ?? []) as {
      name: string;
      required?: boolean;
      enumeration_total?: number;
    }[];
    assert.equal(kids.find((c) => c.name === 'commonPhoneConfigName')?.required, true);
    assert.equal(kids.find((c) => c.name === 'description')?.required, false);
    assert.ok((kids.find((c) => c.name === 'product')?.enumeration_total ?? 0) > 200);

    const got = await s.ok('auditor', 'cucm_axl_call', {
      host,
      operation: 'getPhone',
      args: { name: 'SEP0A1B2C3D4E01' },
    });
    assert.equal(
      (got.result as { return: { phone: { name: string } } }).return.phone.name,
      'SEP0A1B2C3D4E01',
    );
    // The operator confirms each change (writes: confirm): previewed, then sent with the plan_id.
    await s.ok(
      'operator',
      'cucm_axl_call',
      await s.plan('operator', 'cucm_axl_call', {
        host,
        operation: 'addPhone',
        args: {
          phone: {
            name: 'SEP00REAL000001',
            product: 'Cisco 8865',
            class: 'Phone',
            protocol: 'SIP',
            protocolSide: 'User',
            devicePoolName: 'Default',
            commonPhoneConfigName: 'Standard Common Phone Profile',
            locationName: 'Hub_None',
            useTrustedRelayPoint: 'Default',
            builtInBridgeStatus: 'Default',
            packetCaptureMode: 'None',
            certificateOperation: 'No Pending Operation',
            deviceMobilityMode: 'Default',
          },
        },
      }),
    );
    assert.ok(s.lab.state.cucm.db.table('device').findBy('name', 'SEP00REAL000001'));
  });
});
