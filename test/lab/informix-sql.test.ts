import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Database, DbError } from '../../lab/informix/database.ts';
import { runQuery, runUpdate } from '../../lab/informix/sql-executor.ts';

function db(): Database {
  const d = new Database([
    {
      name: 'routepartition',
      columns: ['pkid', 'name', 'description'],
      unique: [['name']],
      defaults: { description: '' },
    },
    {
      name: 'numplan',
      columns: ['pkid', 'dnorpattern', 'fkroutepartition', 'tkpatternusage'],
      unique: [['dnorpattern', 'fkroutepartition']],
      references: { fkroutepartition: { table: 'routepartition' } },
    },
    { name: 'typemodel', columns: ['enum', 'name'], readOnly: true },
  ]);
  const pt = d.insert('routepartition', { name: 'PT_A', description: 'first' });
  d.insert('routepartition', { name: 'PT_B' });
  for (const dn of ['1001', '1002', '2001'])
    d.insert('numplan', { dnorpattern: dn, fkroutepartition: pt.pkid, tkpatternusage: '2' });
  d.insert('numplan', { dnorpattern: '9999', fkroutepartition: null, tkpatternusage: '5' });
  return d;
}

const code = (fn: () => unknown): number => {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof DbError, String(err));
    return err.code;
  }
  assert.fail('expected an Informix error');
};

describe('the lab SQL subset', () => {
  it('selects with SKIP/FIRST, WHERE (AND, OR, NOT, LIKE, IN, IS NULL), ORDER BY, COUNT(*) and DISTINCT', () => {
    const d = db();
    assert.deepEqual(
      runQuery(d, 'SELECT SKIP 1 FIRST 2 dnorpattern FROM numplan ORDER BY dnorpattern DESC').rows,
      [['2001'], ['1002']],
    );
    assert.deepEqual(
      runQuery(
        d,
        "select n.dnorpattern from numplan n where n.dnorpattern like '10%' and not tkpatternusage = '5'",
      ).rows,
      [['1001'], ['1002']],
    );
    assert.deepEqual(
      runQuery(d, "select dnorpattern from numplan where fkroutepartition is null or dnorpattern in ('2001')")
        .rows,
      [['2001'], ['9999']],
    );
    assert.deepEqual(runQuery(d, 'select count(*) from numplan where tkpatternusage = 2').rows, [['3']]);
    assert.deepEqual(
      runQuery(d, 'select distinct tkpatternusage as usage from numplan order by tkpatternusage').rows,
      [['2'], ['5']],
    );
    assert.deepEqual(runQuery(d, 'select distinct tkpatternusage as usage from numplan').columns, ['usage']);
    assert.deepEqual(runQuery(d, "SELECT * FROM routepartition WHERE name = 'PT_A'").columns, [
      'pkid',
      'name',
      'description',
    ]);
    assert.deepEqual(runQuery(d, "select name from routepartition where description <> ''").rows, [['PT_A']]);
  });

  it('inserts, updates and deletes with Informix errors for broken constraints', () => {
    const d = db();
    assert.equal(
      runUpdate(d, "insert into routepartition (name, description) values ('PT_C', 'it''s new')").rowsUpdated,
      1,
    );
    assert.equal(
      runQuery(d, "select description from routepartition where name = 'PT_C'").rows[0]?.[0],
      "it's new",
    );
    assert.equal(
      code(() => runUpdate(d, "insert into routepartition (name) values ('pt_c')")),
      -239,
    );
    assert.equal(
      code(() =>
        runUpdate(d, "insert into numplan (dnorpattern, fkroutepartition) values ('1', 'no-such-pkid')"),
      ),
      -691,
    );
    assert.equal(
      code(() => runUpdate(d, "delete from routepartition where name = 'PT_A'")),
      -692,
    );
    assert.equal(
      runUpdate(d, "update numplan set tkpatternusage = '3' where dnorpattern like '1%'").rowsUpdated,
      2,
    );
    assert.equal(runUpdate(d, "delete from routepartition where name = 'PT_B'").rowsUpdated, 1);
    assert.equal(
      code(() => runUpdate(d, "insert into typemodel (enum, name) values ('1', 'x')")),
      -273,
    );
  });

  it('refuses what is outside the subset with -201, -206 or -217', () => {
    const d = db();
    assert.equal(
      code(() => runQuery(d, 'select * from numplan; delete from numplan')),
      -201,
    );
    assert.equal(
      code(() => runQuery(d, "select * from numplan where dnorpattern = '1' -- comment")),
      -201,
    );
    assert.equal(
      code(() => runQuery(d, 'select dnorpattern from numplan union select name from routepartition')),
      -201,
    );
    assert.equal(
      code(() =>
        runQuery(d, 'select * from numplan a right join routepartition b on a.fkroutepartition = b.pkid'),
      ),
      -201,
    );
    assert.equal(
      code(() => runQuery(d, 'delete from numplan')),
      -9999,
    );
    assert.equal(
      code(() => runUpdate(d, 'select * from numplan')),
      -9999,
    );
    assert.equal(
      code(() => runQuery(d, 'select * from nosuch')),
      -206,
    );
    assert.equal(
      code(() => runQuery(d, 'select nosuch from numplan')),
      -217,
    );
    assert.equal(
      code(() =>
        runQuery(d, `select * from numplan where ${'('.repeat(500)}dnorpattern = '1'${')'.repeat(500)}`),
      ),
      -201,
    );
    assert.equal(d.table('numplan').size, 4);
  });

  it('never crashes on arbitrary input: every failure is an Informix error', () => {
    const words = fc.constantFrom(
      'select',
      'from',
      'where',
      'numplan',
      'dnorpattern',
      '*',
      ',',
      "'x'",
      '(',
      ')',
      'and',
      'or',
      'not',
      'skip',
      'first',
      '1',
      'like',
      'in',
      'is',
      'null',
      '=',
      'order',
      'by',
      'insert',
      'into',
      'values',
      'update',
      'set',
      'delete',
      ';',
    );
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 200 }),
          fc.array(words, { maxLength: 25 }).map((w) => w.join(' ')),
        ),
        (sql) => {
          const d = db();
          for (const run of [() => runQuery(d, sql), () => runUpdate(d, sql)]) {
            try {
              run();
            } catch (err) {
              if (!(err instanceof DbError)) throw err;
            }
          }
        },
      ),
      { numRuns: 1500 },
    );
  });
});
