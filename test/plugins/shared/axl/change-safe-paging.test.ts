// Rows inserted or deleted between two pages, before, at and after the cursor: every row present for the
// whole read comes back exactly once, or the answer says it is incomplete and why (never a silent skip).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { keysetPlan } from '../../../../plugins/_shared/axl/keyset-sql.ts';
import { advance } from '../../../../plugins/_shared/axl/shift-guard.ts';
import { listAll, listPage, sqlQuery, type Page } from '../../../../plugins/_shared/axl/paging.ts';
import type { Json } from '../../../../plugins/_shared/axl/schema.ts';
import { FakeAxlTable } from './fake-axl-table.ts';

const nameOf = (r: Json): string => (r as { name: string }).name;
const SEP = (i: number): string => `SEP${String(i).padStart(12, '0')}`;

/** A change between the first and second page, relative to the cursor after page one (10 rows). */
const CHANGES: Record<string, (t: FakeAxlTable) => { gone: string[] }> = {
  'delete before the cursor': (t) => (t.remove(SEP(3)), { gone: [SEP(3)] }),
  'delete the last row returned': (t) => (t.remove(SEP(9)), { gone: [SEP(9)] }),
  'delete the first row not yet returned': (t) => (t.remove(SEP(10)), { gone: [SEP(10)] }),
  'delete after the cursor': (t) => (t.remove(SEP(30)), { gone: [SEP(30)] }),
  'insert before the cursor': (t) => (t.add('NEW0', 2), { gone: [] }),
  'insert at the cursor': (t) => (t.add('NEW1', 10), { gone: [] }),
  'insert after the cursor': (t) => (t.add('NEW2', 25), { gone: [] }),
  'delete three and insert two before the cursor': (t) => {
    t.remove(SEP(1));
    t.remove(SEP(5));
    t.remove(SEP(8));
    t.add('NEW3', 0);
    t.add('NEW4', 4);
    return { gone: [SEP(1), SEP(5), SEP(8)] };
  },
  'delete the last five rows returned': (t) => {
    const gone = [5, 6, 7, 8, 9].map(SEP);
    for (const g of gone) t.remove(g);
    return { gone };
  },
};

/** Every row of the original table that was not removed: present for the whole read. */
function assertExactlyOnce(page: Page, count: number, gone: string[]): void {
  assert.equal(page.incomplete, undefined, page.incomplete?.reason);
  assert.equal(page.cursor, undefined);
  const got = page.items.map(nameOf);
  const dupes = got.filter((n, i) => got.indexOf(n) !== i);
  assert.deepEqual(dupes, [], 'no row returned twice');
  const stayed = Array.from({ length: count }, (_, i) => SEP(i)).filter((n) => !gone.includes(n));
  assert.deepEqual(
    stayed.filter((n) => !got.includes(n)),
    [],
    'every row present for the whole read is returned',
  );
}

describe('change-safe paging of list operations', () => {
  for (const [what, change] of Object.entries(CHANGES)) {
    it(`listAll follows ${what} between pages`, async () => {
      const t = new FakeAxlTable(50);
      let gone: string[] = [];
      t.between = (n) => {
        if (n === 1) gone = change(t).gone;
      };
      const page = await listAll(t.client, 'listPhone', { name: '%' }, { name: '' }, { pageSize: 10 });
      assertExactlyOnce(page, 50, gone);
    });

    it(`a cursor across calls follows ${what}`, async () => {
      const t = new FakeAxlTable(50);
      const p1 = await listPage(t.client, 'listPhone', { name: '%' }, { name: '' }, 0, 10);
      assert.ok(p1.cursor);
      const { gone } = change(t);
      const rest = await listAll(t.client, 'listPhone', { name: '%' }, { name: '' }, { cursor: p1.cursor });
      assertExactlyOnce({ ...rest, items: [...p1.items, ...rest.items] }, 50, gone);
    });
  }

  it('never loops on a read that would not move forward', () => {
    const stuck = advance({ skip: 10, tail: ['a', 'b'] }, { placed: [], more: true, next: 10 }, 0);
    assert.equal('code' in stuck && stuck.code, 'ROWS_SHIFTED');
    const moved = advance({ skip: 10, tail: ['a'] }, { placed: [], more: true, next: 12 }, 0);
    assert.deepEqual(moved, { skip: 12, tail: ['a'] });
  });

  it('says incomplete, with a coded reason, when the rows moved further than it can follow', async () => {
    const t = new FakeAxlTable(100);
    const p1 = await listPage(t.client, 'listPhone', { name: '%' }, { name: '' }, 0, 40);
    for (let i = 0; i < 40; i++) t.remove(SEP(i));
    for (let i = 0; i < 60; i++) t.add(`NEW${i}`, 0);
    const rest = await listAll(t.client, 'listPhone', { name: '%' }, { name: '' }, { cursor: p1.cursor! });
    assert.equal(rest.cursor, undefined);
    assert.equal(rest.incomplete?.code, 'ROWS_SHIFTED');
    assert.match(rest.incomplete?.reason ?? '', /repeat it without cursor/);
  });
});

describe('change-safe paging of executeSQLQuery', () => {
  for (const [what, change] of Object.entries(CHANGES)) {
    it(`keyset chunks by pkid follow ${what}`, async () => {
      const t = new FakeAxlTable(50, 10);
      let gone: string[] = [];
      t.between = (n) => {
        // Call 0 is the whole statement ("too large"), call 1 the first chunk.
        if (n === 2) gone = change(t).gone;
      };
      const page = await sqlQuery(t.client, "select name from device where name like 'SEP%'");
      assert.ok(
        t.calls.some((c) => /pkid > '/.test(c)),
        t.calls.join('\n'),
      );
      assertExactlyOnce(page, 50, gone);
      assert.ok(
        page.items.every((r) => !('pkid' in (r as object))),
        'the added key column is not shown',
      );
    });

    it(`offset chunks of a statement that cannot be keyed follow ${what}`, async () => {
      // A node limit of 30 rows: chunks of 26, of which up to 13 re-read the previous chunk's end.
      const t = new FakeAxlTable(50, 30);
      let gone: string[] = [];
      t.between = (n) => {
        if (n === 2) gone = change(t).gone;
      };
      const page = await sqlQuery(t.client, 'select d.name from device d, enduser e');
      assert.ok(
        t.calls.some((c) => /SKIP \d+ FIRST/.test(c)),
        t.calls.join('\n'),
      );
      assertExactlyOnce(page, 50, gone);
    });
  }

  it('a keyset cursor across calls survives deletes and inserts anywhere', async () => {
    const t = new FakeAxlTable(50);
    const sql = 'select pkid, name from device';
    const p1 = await sqlQuery(t.client, sql, { budgetBytes: 600 });
    assert.ok(p1.cursor?.after, 'a keyset cursor');
    const returned = new Set(p1.items.map(nameOf));
    const notYet = t.rows.filter((r) => !returned.has(r.name));
    t.remove(p1.items.map(nameOf)[0] as string);
    t.remove(notYet[3]!.name);
    t.add('NEW9', 0);
    const rest = await sqlQuery(t.client, sql, { cursor: p1.cursor! });
    assertExactlyOnce({ ...rest, items: [...p1.items, ...rest.items] }, 50, [notYet[3]!.name]);
  });

  it('keys only statements it understands', () => {
    const k = (sql: string) => keysetPlan(sql)?.sql('abc', 10);
    assert.equal(
      k("select name from device where name like 'SEP%'"),
      "SELECT FIRST 10 name, pkid FROM device WHERE (name like 'SEP%') AND pkid > 'abc' ORDER BY pkid",
    );
    assert.equal(
      k('select d.pkid, d.name from device as d'),
      "SELECT FIRST 10 d.pkid, d.name FROM device d WHERE d.pkid > 'abc' ORDER BY d.pkid",
    );
    // A literal that looks like a keyword is not a keyword.
    assert.ok(k("select * from device where description = 'order by join'"));
    for (const sql of [
      'select d.name from device d join numplan n on d.pkid = n.fkdevice',
      'select name from device order by name',
      'select count(*) from device',
      'select distinct name from device',
      'select name from device where pkid in (select fkdevice from devicenumplanmap)',
      'select pkid as id from device',
      'select name from device -- comment',
      "select name from device where name = 'unclosed",
      'select name, description from device group by name, description',
    ])
      assert.equal(keysetPlan(sql), undefined, sql);
  });
});
