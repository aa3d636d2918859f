// The real Cisco 15.0 schema, when the fixtures sit beside the checkout. The lab's own schema covers
// every feature in the other tests; this one checks the client copes with the real, much larger WSDL.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AxlClient } from '../../../../plugins/_shared/axl/axl-client.ts';
import { downloadAxlToolkit } from '../../../../plugins/_shared/axl/toolkit.ts';
import { FAST_RETRY, startAxlLab } from './helpers.ts';
import { fixture } from '../../../lab/helpers.ts';

const fixtures = fixture('cucm-axl-schema', '15.0');

describe('AXL client with the real 15.0 schema', () => {
  it('downloads it from the lab, lists and describes operations, and calls getPhone', async (t) => {
    if (fixtures === undefined) {
      const reason = `the real 15.0 schema (../shared/fixtures/cucm-axl-schema/15.0) is absent (a fresh clone has no Cisco schema); the lab-schema tests cover the client`;
      console.log(`skip: ${reason}`);
      t.skip(reason);
      return;
    }
    const lab = await startAxlLab({ axlSchemaDir: fixtures });
    try {
      await downloadAxlToolkit({ ...lab.node, cache: lab.cache, retry: FAST_RETRY, nodeVersion: '15.0' });
      const schema = await lab.cache.load('15.0');
      const ops = schema.operations();
      assert.ok(ops.length > 950 && ops.length < 1200, `${ops.length} operations`);
      assert.ok((await lab.cache.operations('15.0', 'sipTrunk')).includes('addSipTrunk'));
      const phone = schema.describe('addPhone').find((f) => f.name === 'phone');
      const fields = phone?.children?.map((c) => c.name) ?? [];
      for (const f of ['name', 'product', 'class', 'protocol', 'devicePoolName', 'lines'])
        assert.ok(fields.includes(f), f);
      const client = new AxlClient({ ...lab.node, version: '15.0', schema, retry: FAST_RETRY });
      try {
        const got = (await client.call('getPhone', { name: 'SEP0A1B2C3D4E01' })) as {
          return: { phone: { name: string } };
        };
        assert.equal(got.return.phone.name, 'SEP0A1B2C3D4E01');
      } finally {
        client.close();
      }
    } finally {
      await lab.stop();
    }
  });
});
