// Every phone of an enterprise-scale lab (25,000) read through cucm_axl_call with a real MCP client:
// listPhone following the tool's cursor to the end, and executeSQLQuery over device, devicenumplanmap
// and numplan joined; both counts equal the lab's own. Times are the benchmark's (bench/lab-enterprise.ts).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { prepareCucm, startProductStack, type ProductStack } from '../../helpers/product-stack.ts';
import type { LabNodeInfo } from '../../../lab/index.ts';

const PHONE_LINES_SQL =
  'select d.name, n.dnorpattern from device d inner join devicenumplanmap m on m.fkdevice = d.pkid inner join numplan n on n.pkid = m.fknumplan where d.tkclass = 1';

describe('an enterprise-scale lab read whole through cucm_axl_call', () => {
  let s: ProductStack;
  let cucm: LabNodeInfo;
  before(async () => {
    s = await startProductStack({ lab: { scale: 'enterprise' } });
    cucm = await prepareCucm(s);
  });
  after(async () => {
    await s.stop();
  });

  const phones = (): Set<string> =>
    new Set(
      s.lab.state.cucm.db
        .table('device')
        .rows.filter((r) => r.tkclass === '1')
        .map((r) => r.name ?? ''),
    );

  it('listPhone, followed by its cursor, returns every phone once', async () => {
    const expected = phones();
    assert.equal(expected.size, 25_000);
    const names: string[] = [];
    let cursor: string | undefined;
    let parts = 0;
    let last: Record<string, unknown>;
    do {
      last = await s.ok('auditor', 'cucm_axl_call', {
        host: cucm.name,
        operation: 'listPhone',
        args: { searchCriteria: { name: '%' }, returnedTags: { name: '', model: '' } },
        ...(cursor ? { cursor } : {}),
      });
      names.push(...(last.rows as { name: string }[]).map((p) => p.name));
      cursor = last.cursor as string | undefined;
      parts++;
    } while (cursor);
    assert.equal(last.complete, true);
    assert.ok(parts > 1, 'the answer came in parts');
    assert.equal(names.length, expected.size);
    assert.deepEqual(new Set(names), expected);
  });

  it('executeSQLQuery with a join returns every line appearance of every phone', async () => {
    const db = s.lab.state.cucm.db;
    const expected = phones();
    const appearances = db
      .table('devicenumplanmap')
      .rows.filter((m) => db.table('device').byPkid(m.fkdevice)?.tkclass === '1').length;
    const rows: { name: string; dnorpattern: string }[] = [];
    let cursor: string | undefined;
    let last: Record<string, unknown>;
    do {
      last = await s.ok('auditor', 'cucm_axl_call', {
        host: cucm.name,
        operation: 'executeSQLQuery',
        args: { sql: PHONE_LINES_SQL },
        max_bytes: 4 * 1024 * 1024,
        ...(cursor ? { cursor } : {}),
      });
      rows.push(...(last.rows as { name: string; dnorpattern: string }[]));
      cursor = last.cursor as string | undefined;
    } while (cursor);
    assert.equal(last.complete, true);
    assert.equal(rows.length, appearances);
    assert.deepEqual(new Set(rows.map((r) => r.name)), expected);
  });
});
