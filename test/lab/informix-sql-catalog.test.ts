import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runQuery, runUpdate } from '../../lab/informix/sql-executor.ts';
import { informixError, lineDb } from './informix-fixture.ts';

describe('the Informix system catalog in the lab', () => {
  it('lists the user tables in systables with tabid 100 and up, and live row counts', () => {
    const d = lineDb();
    const result = runQuery(
      d,
      'select tabname, tabid, ncols, nrows, tabtype, owner from systables where tabid > 99 order by tabname',
    );
    assert.deepEqual(
      result.rows.map((r) => r[0]),
      ['device', 'devicenumplanmap', 'numplan', 'routepartition', 'typemodel'],
    );
    assert.ok(result.rows.every((r) => Number(r[1]) >= 100));
    assert.deepEqual(result.rows[0]?.slice(2), ['5', '4', 'T', 'informix']);
    // The catalog describes itself with tabids below 100, as on a real server.
    assert.deepEqual(runQuery(d, 'select tabname from systables where tabid < 100 order by tabid').rows, [
      ['systables'],
      ['syscolumns'],
    ]);
    runUpdate(d, "insert into device (pkid, name) values ('dev-9', 'SEP000000000009')");
    assert.deepEqual(runQuery(d, "select nrows from systables where tabname = 'device'").rows, [['5']]);
  });

  it('lists each table column in syscolumns, joinable with systables', () => {
    const d = lineDb();
    const result = runQuery(
      d,
      `select c.colname, c.colno, c.coltype, c.collength from syscolumns c, systables t
        where c.tabid = t.tabid and t.tabname = 'numplan' order by c.colno`,
    );
    assert.deepEqual(
      result.rows.map((r) => r[0]),
      ['pkid', 'dnorpattern', 'fkroutepartition', 'tkpatternusage', 'alertingname'],
    );
    assert.deepEqual(result.rows[0], ['pkid', '1', '256', '36']);
    assert.deepEqual(
      runQuery(
        d,
        "select t.tabname, count(*) from systables t join syscolumns c on c.tabid = t.tabid where t.tabname matches 'dev*' group by t.tabname order by 1",
      ).rows,
      [
        ['device', '5'],
        ['devicenumplanmap', '5'],
      ],
    );
  });

  it('refuses writes to the catalog and answers -206 for catalog tables the lab does not have', () => {
    const d = lineDb();
    assert.equal(
      informixError(() => runUpdate(d, "delete from systables where tabname = 'device'")).code,
      -273,
    );
    assert.deepEqual(
      informixError(() => runQuery(d, 'select * from sysindexes')),
      {
        code: -206,
        message: 'The specified table (sysindexes) is not in the database.',
      },
    );
  });
});
