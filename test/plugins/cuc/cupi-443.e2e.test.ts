// Unity Connection's CUPI on its second port (443 on a real node, beside 8443), and the distribution
// lists, classes of service and page ceiling, end to end through real MCP clients against the lab.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LabNodeInfo } from '../../../lab/index.ts';
import { labPinArgs, startProductStack, type ProductStack } from '../../helpers/product-stack.ts';

describe('CUPI on 443 as well as 8443, distribution lists and classes of service', () => {
  let s: ProductStack;
  let cuc: LabNodeInfo;
  before(async () => {
    s = await startProductStack();
    cuc = s.node('cuc');
  });
  after(async () => {
    await s.stop();
  });

  const store = async (host: string, address?: string): Promise<void> => {
    const cred = cuc.credentials.cupi;
    assert.ok(cred);
    await s.ok('admin', 'cuc_store_credentials', {
      host,
      username: cred.user,
      password: cred.password,
      ...(address ? { address } : {}),
      ...labPinArgs(s.lab, cuc),
    });
  };

  it('reads distribution lists and classes of service through the second port (address form)', async () => {
    assert.ok(cuc.ports.https443, 'the lab CUC has a second HTTPS port');
    await store(cuc.name, `${cuc.host}:${cuc.ports.https443}`);
    const before = s.lab.state.log.requests.filter((r) => r.service === 'cupi').length;
    const dls = await s.ok('admin', 'cuc_cupi_list', { host: cuc.name, resource: 'distributionlists' });
    assert.equal(dls.total, 2);
    assert.equal(dls.object_name, 'DistributionList');
    const aliases = (dls.items as { Alias: string }[]).map((d) => d.Alias).sort();
    assert.deepEqual(aliases, ['allvoicemailusers', 'undeliverablemessages']);
    const coses = await s.ok('admin', 'cuc_cupi_list', {
      host: cuc.name,
      resource: 'coses',
      sort: '(displayname asc)',
    });
    const names = (coses.items as { DisplayName: string; ObjectId: string }[]).map((c) => c.DisplayName);
    assert.deepEqual(names, ['System', 'Voice Mail User COS']);
    const id = (coses.items as { ObjectId: string }[])[1]?.ObjectId as string;
    const one = await s.ok('admin', 'cuc_cupi_call', {
      host: cuc.name,
      method: 'GET',
      path: `/vmrest/coses/${id}`,
    });
    assert.equal(one.status, 200);
    assert.equal((one.body as { MaxMsgLength: string }).MaxMsgLength, '300');
    assert.ok(s.lab.state.log.requests.filter((r) => r.service === 'cupi').length > before);
  });

  it('reads through the second port named in the host itself (host:port form)', async () => {
    const host = `localhost:${cuc.ports.https443 as number}`;
    await store(host);
    const dls = await s.ok('admin', 'cuc_cupi_list', { host, resource: 'distributionlists' });
    assert.equal(dls.total, 2);
  });

  it('pages past the node ceiling of 2,000 objects a page', async () => {
    const store = s.lab.state.cuc.cupi;
    const many = store.define('test/manyobjects', 'Many', 'One', ['Alias'], 'Alias');
    for (let i = 0; i < 2100; i++) store.create(many, { Alias: `a${i}` });
    try {
      const p1 = await s.ok('admin', 'cuc_cupi_list', {
        host: cuc.name,
        resource: 'test/manyobjects',
        rowsPerPage: 2000,
      });
      assert.equal(p1.count, 2000);
      assert.equal(p1.more, true);
      const p2 = await s.ok('admin', 'cuc_cupi_list', {
        host: cuc.name,
        resource: 'test/manyobjects',
        rowsPerPage: 2000,
        pageNumber: 2,
      });
      assert.equal(p2.count, 100);
      assert.equal(p2.more, false);
      const over = await s.fails('admin', 'cuc_cupi_list', {
        host: cuc.name,
        resource: 'test/manyobjects',
        rowsPerPage: 2001,
      });
      assert.equal(over.error, 'BAD_REQUEST');
    } finally {
      store.collections.delete('test/manyobjects');
    }
  });

  it('cupi_list reads on with a cursor: changes after it are followed, a shift before it is reported', async () => {
    const store = s.lab.state.cuc.cupi;
    const many = store.define('test/paged', 'Paged', 'One', ['Alias'], 'Alias');
    const ids = Array.from(
      { length: 30 },
      (_, i) => store.create(many, { Alias: `p${i}` }).ObjectId as string,
    );
    const list = (extra: Record<string, unknown>) =>
      s.ok('auditor', 'cuc_cupi_list', { host: cuc.name, resource: 'test/paged', rowsPerPage: 10, ...extra });
    try {
      const p1 = await list({});
      assert.equal(p1.complete, false);
      assert.ok(p1.cursor);
      // After the cursor: one removed, one added; both are followed.
      many.items.delete(ids[25] as string);
      store.create(many, { Alias: 'late' });
      const p2 = await list({ cursor: p1.cursor });
      assert.equal(p2.incomplete, undefined);
      const p3 = await list({ cursor: p2.cursor });
      assert.equal(p3.complete, true);
      assert.equal(p3.cursor, undefined);
      const seen = [p1, p2, p3].flatMap((p) => (p.items as { Alias: string }[]).map((o) => o.Alias));
      assert.equal(new Set(seen).size, seen.length, 'no object twice');
      for (let i = 0; i < 30; i++) if (i !== 25) assert.ok(seen.includes(`p${i}`), `p${i}`);
      // Before the cursor: every later object moves up a place; the next page says so.
      const q1 = await list({});
      many.items.delete(ids[3] as string);
      const q2 = await list({ cursor: q1.cursor });
      assert.equal(q2.complete, false);
      assert.equal(q2.cursor, undefined);
      assert.equal((q2.incomplete as { code: string }).code, 'ROWS_SHIFTED');
      const forged = await s.fails('auditor', 'cuc_cupi_list', {
        host: cuc.name,
        resource: 'users',
        rowsPerPage: 10,
        cursor: q1.cursor,
      });
      assert.equal(forged.error, 'BAD_REQUEST');
    } finally {
      store.collections.delete('test/paged');
    }
  });
});
