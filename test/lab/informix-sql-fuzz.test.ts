import { describe, it } from 'node:test';
import fc from 'fast-check';
import { DbError } from '../../lab/informix/database.ts';
import { runQuery, runUpdate } from '../../lab/informix/sql-executor.ts';
import { lineDb } from './informix-fixture.ts';

const column = fc.constantFrom(
  'd.name',
  'd.pkid',
  'd.tkmodel',
  'm.fkdevice',
  'm.numplanindex',
  'm.label',
  'n.dnorpattern',
  'n.alertingname',
  'name',
  'nosuch',
);
const literal = fc.constantFrom("'SEP%'", '1', '0', '-2', 'null', "'a b'", '2.5');

const expr: fc.Arbitrary<string> = fc.letrec<{ e: string; c: string }>((tie) => ({
  e: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    column,
    literal,
    tie('e').map((x) => `upper(${x})`),
    fc.tuple(tie('e'), tie('e')).map(([a, b]) => `${a} || ${b}`),
    fc.tuple(tie('e'), fc.constantFrom('+', '-', '*', '/'), tie('e')).map(([a, o, b]) => `(${a} ${o} ${b})`),
    fc.tuple(tie('c'), tie('e'), tie('e')).map(([c, a, b]) => `case when ${c} then ${a} else ${b} end`),
    tie('e').map((x) => `(select count(*) from devicenumplanmap x where x.fkdevice = ${x})`),
    tie('e').map((x) => `(select label from devicenumplanmap x where x.fkdevice = ${x})`),
    fc.tuple(tie('e'), literal, literal).map(([a, b, c]) => `substr(${a}, ${b}, ${c})`),
    fc
      .tuple(fc.constantFrom('leading', 'trailing', 'both'), tie('e'))
      .map(([s, x]) => `trim(${s} from ${x})`),
    fc.tuple(tie('e'), tie('e')).map(([a, b]) => `nvl(${a}, ${b})`),
    tie('e').map((x) => `length(${x})`),
    tie('e').map((x) => `max(${x})`),
  ),
  c: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.tuple(tie('e'), fc.constantFrom('=', '<>', '<', '>='), tie('e')).map(([a, o, b]) => `${a} ${o} ${b}`),
    fc.tuple(tie('c'), tie('c')).map(([a, b]) => `(${a} and ${b})`),
    fc.tuple(tie('c'), tie('c')).map(([a, b]) => `(${a} or ${b})`),
    tie('c').map((x) => `not ${x}`),
    tie('e').map((x) => `${x} like 'S%'`),
    tie('e').map((x) => `${x} in (select fkdevice from devicenumplanmap)`),
    tie('e').map((x) => `exists (select 1 from numplan z where z.pkid = ${x})`),
    tie('e').map((x) => `${x} between 1 and 5000`),
    tie('e').map((x) => `${x} is not null`),
  ),
})).e;

const from = fc.constantFrom(
  'device d, devicenumplanmap m, numplan n',
  'device d left join devicenumplanmap m on m.fkdevice = d.pkid left join numplan n on n.pkid = m.fknumplan',
  'device d, outer (devicenumplanmap m, numplan n)',
  'device d join devicenumplanmap m on m.fkdevice = d.pkid join numplan n on n.pkid = m.fknumplan',
);

describe('the lab SQL under generated statements', () => {
  it('answers every generated join, group and subquery with rows or an Informix error, never a crash', () => {
    fc.assert(
      fc.property(
        fc.array(expr, { minLength: 1, maxLength: 3 }),
        from,
        fc.option(expr),
        fc.boolean(),
        fc.boolean(),
        (items, source, where, grouped, distinct) => {
          const sql =
            `select ${distinct ? 'distinct ' : ''}${items.join(', ')} from ${source}` +
            (where ? ` where ${where} is not null` : '') +
            (grouped ? ' group by 1 having count(*) > 0' : '') +
            ' order by 1 desc';
          for (const run of [
            () => runQuery(lineDb(), sql),
            () => runUpdate(lineDb(), `delete from device where ${where ?? '1 = 1'} is null`),
          ]) {
            try {
              run();
            } catch (err) {
              if (!(err instanceof DbError)) throw err;
            }
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});
