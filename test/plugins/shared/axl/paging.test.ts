import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BadRequestError } from '../../../../kernel/sdk/index.ts';
import { AxlClient, AxlFaultError } from '../../../../plugins/_shared/axl/axl-client.ts';
import { listAll, listPage, pagedSql, sqlQuery } from '../../../../plugins/_shared/axl/paging.ts';
import type { Json } from '../../../../plugins/_shared/axl/schema.ts';
import { downloadAxlToolkit } from '../../../../plugins/_shared/axl/toolkit.ts';
import type { AxlLab } from './helpers.ts';
import { FAST_RETRY, startAxlLab } from './helpers.ts';

const names = (items: Json[]): string[] => items.map((i) => (i as { name: string }).name);

describe('AXL paging against the lab CUCM', () => {
  let t: AxlLab;
  let client: AxlClient;
  let total: number;
  before(async () => {
    t = await startAxlLab({ extraPhones: 60, axlMaxResponseBytes: 3000 });
    await downloadAxlToolkit({ ...t.node, cache: t.cache, retry: FAST_RETRY });
    client = new AxlClient({
      ...t.node,
      version: '15.0',
      schema: await t.cache.load('15.0'),
      retry: FAST_RETRY,
    });
    total = t.lab.state.cucm.db.table('device').rows.filter((r) => String(r.name).startsWith('SEP')).length;
  });
  after(async () => {
    client.close();
    await t.stop();
  });

  it('pages a list operation with skip/first and a cursor', async () => {
    const p1 = await listPage(client, 'listPhone', { name: 'SEP%' }, { name: '' }, 0, 5);
    assert.equal(p1.items.length, 5);
    assert.equal(p1.cursor?.skip, 5);
    const p2 = await listPage(client, 'listPhone', { name: 'SEP%' }, { name: '' }, p1.cursor!, 5);
    assert.equal(new Set([...names(p1.items), ...names(p2.items)]).size, 10);
    const all = await listAll(client, 'listPhone', { name: 'SEP%' }, { name: '' }, { pageSize: 20 });
    assert.equal(all.items.length, total);
    assert.equal(all.cursor, undefined);
  });

  it('cuts a list that exceeds the byte budget with a cursor to the rest, never silently', async () => {
    const cut = await listAll(
      client,
      'listPhone',
      { name: 'SEP%' },
      { name: '', description: '' },
      { pageSize: 20, budgetBytes: 1500 },
    );
    assert.ok(cut.cursor && cut.items.length === cut.cursor.skip && cut.items.length < total);
    assert.equal(
      cut.cursor.tail?.length,
      Math.min(6, cut.items.length),
      'the cursor remembers where it stopped',
    );
    const rest = await listAll(
      client,
      'listPhone',
      { name: 'SEP%' },
      { name: '', description: '' },
      { pageSize: 20, cursor: cut.cursor },
    );
    assert.equal(cut.items.length + rest.items.length, total);
  });

  it('does not trust a node that ignores first', async () => {
    const sloppy = {
      call: () =>
        Promise.resolve({ return: { line: [1, 2, 3, 4, 5, 6, 7].map((n) => ({ pattern: String(n) })) } }),
    };
    const page = await listPage(sloppy as unknown as AxlClient, 'listLine', { pattern: '%' }, {}, 0, 3);
    assert.equal(page.items.length, 3);
    assert.equal(page.cursor?.skip, 3);
  });

  it('chunks executeSQLQuery when the node answers "Query request too large"', async () => {
    const sql = "select name, description from device where name like 'SEP%'";
    await assert.rejects(
      client.call('executeSQLQuery', { sql }),
      (e: unknown) => e instanceof AxlFaultError && /Query request too large/.test(e.axlMessage),
    );
    const before = t.lab.state.log.requests.length;
    const got = await sqlQuery(client, sql);
    assert.equal(got.items.length, total);
    assert.equal(got.cursor, undefined);
    assert.equal(new Set(names(got.items)).size, total);
    assert.ok(t.lab.state.log.requests.length - before > 2, 'several chunks were read');
  });

  it('cuts an SQL answer at the byte budget with a cursor, and continues from it', async () => {
    const sql = "select name from device where name like 'SEP%'";
    const first = await sqlQuery(client, sql, { budgetBytes: 800 });
    assert.ok(first.cursor);
    const rest = await sqlQuery(client, sql, { cursor: first.cursor });
    assert.equal(first.items.length + rest.items.length, total);
  });

  it('rewrites only a plain SELECT', () => {
    assert.equal(pagedSql('select * from device', 10, 5), 'SELECT SKIP 10 FIRST 5 * from device');
    assert.throws(() => pagedSql('select first 3 * from device', 0, 5), BadRequestError);
    assert.throws(() => pagedSql('update device set description = 1', 0, 5), BadRequestError);
  });
});
