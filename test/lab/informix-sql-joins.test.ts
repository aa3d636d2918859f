import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Database } from '../../lab/informix/database.ts';
import { runQuery } from '../../lab/informix/sql-executor.ts';
import { informixError, lineDb } from './informix-fixture.ts';

describe('Informix SQL joins in the lab', () => {
  it('joins three tables with commas and WHERE, and with INNER JOIN ... ON, alike', () => {
    const d = lineDb();
    const expected = [
      ['CSFCAROL', '1001', 'PT_Internal'],
      ['CSFCAROL', '1003', 'PT_Internal'],
      ['SEP000000000001', '1001', 'PT_Internal'],
      ['SEP000000000001', '1003', 'PT_Internal'],
      ['SEP000000000002', '1002', 'PT_Internal'],
    ];
    const comma = runQuery(
      d,
      `select d.name, n.dnorpattern, p.name as partition
         from device d, devicenumplanmap dmap, numplan n, routepartition p
        where dmap.fkdevice = d.pkid and dmap.fknumplan = n.pkid and n.fkroutepartition = p.pkid
        order by d.name, n.dnorpattern`,
    );
    assert.deepEqual(comma.columns, ['name', 'dnorpattern', 'partition']);
    assert.deepEqual(comma.rows, expected);
    const ansi = runQuery(
      d,
      `SELECT d.name, n.dnorpattern, p.name partition FROM device AS d
         INNER JOIN devicenumplanmap AS dmap ON dmap.fkdevice = d.pkid
         JOIN numplan n ON n.pkid = dmap.fknumplan
         INNER JOIN routepartition p ON p.pkid = n.fkroutepartition
        ORDER BY 1, 2`,
    );
    assert.deepEqual(ansi.rows, expected);
  });

  it('keeps unmatched rows in an ANSI LEFT OUTER JOIN, and filters after it in WHERE', () => {
    const d = lineDb();
    assert.deepEqual(
      runQuery(
        d,
        `select d.name, m.label from device d
           left outer join devicenumplanmap m on m.fkdevice = d.pkid and m.numplanindex = 1
          order by d.name`,
      ).rows,
      [
        ['CSFCAROL', 'Alice soft'],
        ['SEP000000000001', 'Alice 1001'],
        ['SEP000000000002', 'Bob 1002'],
        ['SEP000000000004', null],
      ],
    );
    // The anti-join idiom: devices without any line.
    assert.deepEqual(
      runQuery(
        d,
        'select d.name from device d left join devicenumplanmap m on m.fkdevice = d.pkid where m.pkid is null',
      ).rows,
      [['SEP000000000004']],
    );
    // A line with no partition still appears, with NULL partition columns.
    assert.deepEqual(
      runQuery(
        d,
        `select n.dnorpattern, p.name from numplan n left join routepartition p on p.pkid = n.fkroutepartition
          where n.tkpatternusage = 5`,
      ).rows,
      [['9.@', null]],
    );
  });

  it("takes Informix's OUTER join conditions from WHERE, for one table and for OUTER (a, b)", () => {
    const d = lineDb();
    assert.deepEqual(
      runQuery(
        d,
        `select d.name, m.label from device d, outer devicenumplanmap m
          where m.fkdevice = d.pkid and m.numplanindex = 2 order by d.name`,
      ).rows,
      [
        ['CSFCAROL', 'shared'],
        ['SEP000000000001', 'shared'],
        ['SEP000000000002', null],
        ['SEP000000000004', null],
      ],
    );
    assert.deepEqual(
      runQuery(
        d,
        `select d.name, n.dnorpattern from device d, outer (devicenumplanmap m, numplan n)
          where m.fkdevice = d.pkid and n.pkid = m.fknumplan and d.tkmodel = 36213 order by d.name`,
      ).rows,
      [
        ['SEP000000000002', '1002'],
        ['SEP000000000004', null],
      ],
    );
  });

  it('expands * and t.* across joined tables, repeating a name two tables share', () => {
    const d = lineDb();
    const all = runQuery(
      d,
      "select * from routepartition p, numplan n where n.fkroutepartition = p.pkid and n.dnorpattern = '1001'",
    );
    assert.deepEqual(all.columns, [
      'pkid',
      'name',
      'description',
      'pkid',
      'dnorpattern',
      'fkroutepartition',
      'tkpatternusage',
      'alertingname',
    ]);
    assert.deepEqual(all.rows[0]?.slice(0, 4), ['pt-int', 'PT_Internal', 'lines', 'np-1']);
    const one = runQuery(
      d,
      "select n.*, p.name from numplan n join routepartition p on p.pkid = n.fkroutepartition where n.pkid = 'np-2'",
    );
    assert.deepEqual(one.rows, [['np-2', '1002', 'pt-int', '2', 'Bob', 'PT_Internal']]);
  });

  it('answers Informix errors for ambiguous and unknown columns and tables in a join', () => {
    const d = lineDb();
    assert.deepEqual(
      informixError(() => runQuery(d, 'select name from device d, routepartition p')),
      { code: -324, message: 'Ambiguous column (name).' },
    );
    assert.deepEqual(
      informixError(() => runQuery(d, 'select d.nosuch from device d join numplan n on n.pkid = d.pkid')),
      { code: -217, message: 'Column (nosuch) not found in any table in the query (or SLV is undefined).' },
    );
    assert.deepEqual(
      informixError(() => runQuery(d, 'select x.name from device d')),
      { code: -217, message: 'Column (x.name) not found in any table in the query (or SLV is undefined).' },
    );
    assert.deepEqual(
      informixError(() => runQuery(d, 'select * from device d join nosuch n on n.pkid = d.pkid')),
      { code: -206, message: 'The specified table (nosuch) is not in the database.' },
    );
    assert.equal(
      informixError(() => runQuery(d, 'select * from device d full join numplan n on 1 = 1')).code,
      -201,
    );
    assert.equal(informixError(() => runQuery(d, 'select * from device d left join numplan n')).code, -201);
  });

  it('hash-joins large tables and refuses a cross join too large to hold with -208', () => {
    const devices = 3000;
    const d = new Database([
      { name: 'device', columns: ['pkid', 'name'] },
      { name: 'numplan', columns: ['pkid', 'dnorpattern'] },
      { name: 'devicenumplanmap', columns: ['pkid', 'fkdevice', 'fknumplan'] },
    ]);
    for (let i = 0; i < devices; i++) {
      d.insert('device', { pkid: `d${i}`, name: `SEP${String(i).padStart(12, '0')}` });
      d.insert('numplan', { pkid: `n${i}`, dnorpattern: String(10000 + i) });
      d.insert('devicenumplanmap', { fkdevice: `d${i}`, fknumplan: `n${i}` });
    }
    const joined = runQuery(
      d,
      `select count(*) from device d, devicenumplanmap m, numplan n
        where m.fkdevice = d.pkid and n.pkid = m.fknumplan and n.dnorpattern >= 10000`,
    );
    assert.deepEqual(joined.rows, [[String(devices)]]);
    // 3,000 x 3,000 x 3,000 rows: bounded, answered at once with Informix's out-of-memory code.
    assert.equal(
      informixError(() => runQuery(d, 'select count(*) from device, numplan, devicenumplanmap')).code,
      -208,
    );
  });
});
