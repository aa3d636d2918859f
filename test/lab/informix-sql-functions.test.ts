import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runQuery } from '../../lab/informix/sql-executor.ts';
import { informixError, lineDb } from './informix-fixture.ts';

const one = (sql: string): (string | null)[] => {
  const rows = runQuery(lineDb(), sql).rows;
  assert.equal(rows.length, 1, sql);
  return rows[0] as (string | null)[];
};

describe('Informix SQL grouping and functions in the lab', () => {
  it('groups with GROUP BY and HAVING, with every aggregate', () => {
    const d = lineDb();
    const result = runQuery(
      d,
      `select m.fkdevice, count(*), count(n.alertingname), count(distinct m.label), min(n.dnorpattern),
              max(n.dnorpattern), sum(m.numplanindex), avg(m.numplanindex)
         from devicenumplanmap m, numplan n where n.pkid = m.fknumplan
        group by m.fkdevice having count(*) > 1 order by m.fkdevice`,
    );
    assert.deepEqual(result.columns, ['fkdevice', 'count', 'count', 'count', 'min', 'max', 'sum', 'avg']);
    assert.deepEqual(result.rows, [
      ['dev-1', '2', '1', '2', '1001', '1003', '3', '1.5'],
      ['dev-3', '2', '1', '2', '1001', '1003', '3', '1.5'],
    ]);
    // GROUP BY a select position, ORDER BY an aggregate's alias, HAVING on another aggregate.
    assert.deepEqual(
      runQuery(
        d,
        "select tkmodel, count(*) phones from device group by 1 having min(name) like 'SEP%' order by phones desc, 1",
      ).rows,
      [
        ['36213', '2'],
        ['36670', '1'],
      ],
    );
    // Without GROUP BY an aggregate query answers one row, even over no rows at all.
    assert.deepEqual(
      runQuery(d, "select count(*), max(name), sum(tkmodel) from device where name = 'none'").rows,
      [['0', null, null]],
    );
    assert.deepEqual(
      informixError(() => runQuery(d, 'select name, count(*) from device group by tkmodel')),
      { code: -294, message: 'The column (name) must be in the GROUP BY list.' },
    );
    assert.deepEqual(
      informixError(() => runQuery(d, 'select name from device where count(*) > 1')),
      {
        code: -303,
        message: 'Expression mixes columns with aggregates.',
      },
    );
    assert.equal(informixError(() => runQuery(d, 'select max(count(*)) from device')).code, -544);
    assert.equal(informixError(() => runQuery(d, 'select sum(name) from device')).code, -1213);
  });

  it('groups by an expression and selects that expression', () => {
    assert.deepEqual(
      runQuery(
        lineDb(),
        'select substr(name, 1, 3) prefix, count(*) from device group by substr(name, 1, 3) order by 1',
      ).rows,
      [
        ['CSF', '1'],
        ['SEP', '3'],
      ],
    );
  });

  it('evaluates UPPER, LOWER, TRIM, SUBSTR, SUBSTRING, LENGTH, CHAR_LENGTH, NVL and ||', () => {
    assert.deepEqual(
      one(`select upper(description), lower(name), trim('  x  '), trim(leading '0' from '0012'),
                  trim(trailing from 'ab  '), trim(both 'x' from 'xxaxx'), substr(name, 4), substr(name, 4, 3),
                  substr(name, -3), substring(name from 2 for 3), substring(name from 5), length('ab  '),
                  char_length(description), nvl(fkcallingsearchspace, 'no CSS'), nvl(name, 'x'),
                  name || ':' || tkmodel, name || fkcallingsearchspace
             from device where pkid = 'dev-1'`),
      [
        'ALICE DESK',
        'sep000000000001',
        'x',
        '12',
        'ab',
        'a',
        '000000000001',
        '000',
        '001',
        'EP0',
        '00000000001',
        '2',
        '10',
        'no CSS',
        'SEP000000000001',
        'SEP000000000001:36670',
        null,
      ],
    );
    assert.deepEqual(
      runQuery(
        lineDb(),
        'select upper(dnorpattern), length(dnorpattern) len, nvl(alertingname, dnorpattern) from numplan',
      ).columns,
      ['expression', 'len', 'expression'],
    );
    assert.deepEqual(
      informixError(() => runQuery(lineDb(), 'select soundex(name) from device')),
      { code: -674, message: 'Routine (soundex) can not be resolved.' },
    );
    assert.equal(informixError(() => runQuery(lineDb(), 'select upper(name, 1) from device')).code, -674);
  });

  it('evaluates searched and simple CASE, and arithmetic with Informix errors', () => {
    assert.deepEqual(
      runQuery(
        lineDb(),
        `select name,
                case when tkmodel = 503 then 'soft' when tkmodel in (36670, 36213) then 'desk' else 'other' end kind,
                case tkmodel when '36213' then '7841' when '36670' then '8845' end model,
                tkmodel + 1, tkmodel - 3 * 2, (tkmodel + 1) / 2, -tkmodel
           from device where pkid in ('dev-1', 'dev-3') order by name`,
      ).rows,
      [
        ['CSFCAROL', 'soft', null, '504', '497', '252', '-503'],
        ['SEP000000000001', 'desk', '8845', '36671', '36664', '18335.5', '-36670'],
      ],
    );
    assert.deepEqual(
      informixError(() => runQuery(lineDb(), 'select tkmodel / 0 from device')),
      { code: -1202, message: 'An attempt was made to divide by zero.' },
    );
    assert.deepEqual(
      informixError(() => runQuery(lineDb(), 'select name + 1 from device')),
      { code: -1213, message: 'A character to numeric conversion process failed.' },
    );
  });

  it('filters with BETWEEN, NOT BETWEEN, IN, NOT IN with NULL, and orders by alias and position', () => {
    const d = lineDb();
    assert.deepEqual(
      runQuery(d, 'select dnorpattern from numplan where dnorpattern between 1001 and 1002 order by 1 desc')
        .rows,
      [['1002'], ['1001']],
    );
    assert.deepEqual(
      runQuery(
        d,
        "select dnorpattern d from numplan where dnorpattern not between '1002' and '1003' order by d",
      ).rows,
      [['1001'], ['9.@']],
    );
    // NOT IN with a NULL in the list is never true, as SQL's three-valued logic says.
    assert.deepEqual(runQuery(d, "select name from device where name not in ('x', null)").rows, []);
    assert.deepEqual(
      runQuery(d, 'select unique tkmodel from device where not (tkmodel = 503 or tkmodel = 36670)').rows,
      [['36213']],
    );
    assert.deepEqual(runQuery(d, 'select skip 1 limit 2 name from device order by tkmodel desc, name').rows, [
      ['SEP000000000002'],
      ['SEP000000000004'],
    ]);
  });
});
