import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runQuery, runUpdate } from '../../lab/informix/sql-executor.ts';
import { informixError, lineDb } from './informix-fixture.ts';

describe('Informix SQL subqueries in the lab', () => {
  it('filters with IN and NOT IN (SELECT ...)', () => {
    const d = lineDb();
    assert.deepEqual(
      runQuery(
        d,
        "select name from device where pkid in (select fkdevice from devicenumplanmap where label = 'shared') order by name",
      ).rows,
      [['CSFCAROL'], ['SEP000000000001']],
    );
    assert.deepEqual(
      runQuery(d, 'select name from device where pkid not in (select fkdevice from devicenumplanmap)').rows,
      [['SEP000000000004']],
    );
    // A NULL among the subquery's values makes NOT IN unknown, hence no row.
    assert.deepEqual(
      runQuery(d, 'select dnorpattern from numplan where pkid not in (select alertingname from numplan)')
        .rows,
      [],
    );
  });

  it('filters with correlated EXISTS and NOT EXISTS', () => {
    const d = lineDb();
    assert.deepEqual(
      runQuery(
        d,
        `select n.dnorpattern from numplan n where exists
           (select 1 from devicenumplanmap m, device dv
             where m.fknumplan = n.pkid and dv.pkid = m.fkdevice and dv.name like 'CSF%') order by 1`,
      ).rows,
      [['1001'], ['1003']],
    );
    assert.deepEqual(
      runQuery(
        d,
        'select n.dnorpattern from numplan n where not exists (select * from devicenumplanmap m where m.fknumplan = n.pkid)',
      ).rows,
      [['9.@']],
    );
  });

  it('compares with scalar subqueries, correlated or not, and refuses one that returns two rows', () => {
    const d = lineDb();
    assert.deepEqual(
      runQuery(
        d,
        `select d.name, (select count(*) from devicenumplanmap m where m.fkdevice = d.pkid) lines
           from device d where (select max(numplanindex) from devicenumplanmap m where m.fkdevice = d.pkid) = 2
          order by lines desc, d.name`,
      ).rows,
      [
        ['CSFCAROL', '2'],
        ['SEP000000000001', '2'],
      ],
    );
    assert.deepEqual(
      runQuery(
        d,
        "select name from device where tkmodel = (select enum from typemodel where name = 'Cisco 8845')",
      ).rows,
      [['SEP000000000001']],
    );
    assert.deepEqual(
      informixError(() =>
        runQuery(d, 'select name from device where tkmodel = (select enum from typemodel)'),
      ),
      { code: -284, message: 'A subquery has returned not exactly one row.' },
    );
    assert.equal(
      informixError(() =>
        runQuery(d, 'select name from device where pkid in (select pkid, name from device)'),
      ).code,
      -201,
    );
  });

  it('takes subqueries and expressions in UPDATE and DELETE', () => {
    const d = lineDb();
    assert.equal(
      runUpdate(
        d,
        `update device set description = upper(name) || ' (' || (select name from typemodel t where t.enum = device.tkmodel) || ')'
          where pkid in (select fkdevice from devicenumplanmap where numplanindex = 2)`,
      ).rowsUpdated,
      2,
    );
    assert.deepEqual(runQuery(d, "select description from device where pkid = 'dev-3'").rows, [
      ['CSFCAROL (Cisco Unified Client Services Framework)'],
    ]);
    assert.equal(
      runUpdate(
        d,
        'delete from numplan where not exists (select 1 from devicenumplanmap m where m.fknumplan = numplan.pkid)',
      ).rowsUpdated,
      1,
    );
    assert.deepEqual(runQuery(d, 'select count(*) from numplan').rows, [['3']]);
    assert.equal(
      runUpdate(
        d,
        "insert into routepartition (pkid, name, description) values ('pt-x', 'PT_' || upper('x'), null)",
      ).rowsUpdated,
      1,
    );
    assert.deepEqual(runQuery(d, "select name from routepartition where pkid = 'pt-x'").rows, [['PT_X']]);
  });
});
