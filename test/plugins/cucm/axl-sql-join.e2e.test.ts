// executeSQLQuery with joins and grouping through cucm_axl_call against the lab: the answer is the whole join,
// read in SKIP/FIRST chunks where the node says it is too large, and Informix errors come back as AXLError.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LabNodeInfo } from '../../../lab/index.ts';
import { prepareCucm, startProductStack, type ProductStack } from '../../helpers/product-stack.ts';

describe('cucm_axl_call executeSQLQuery with joins', () => {
  let s: ProductStack;
  let cucm: LabNodeInfo;
  before(async () => {
    s = await startProductStack({ lab: { extraPhones: 150, axlMaxResponseBytes: 8_000 } });
    cucm = await prepareCucm(s);
  });
  after(async () => {
    await s.stop();
  });

  it('reads every line appearance of a three-table join, chunked, with the counts of the lab', async () => {
    const requests = s.lab.state.log.requests.length;
    const r = await s.ok('auditor', 'cucm_axl_call', {
      host: cucm.name,
      operation: 'executeSQLQuery',
      args: {
        sql: `select d.name, n.dnorpattern, dmap.numplanindex from device d
                inner join devicenumplanmap dmap on dmap.fkdevice = d.pkid
                inner join numplan n on n.pkid = dmap.fknumplan
               order by d.name, dmap.numplanindex`,
      },
      max_bytes: 1024 * 1024,
    });
    assert.equal(r.complete, true);
    assert.ok(
      s.lab.state.log.requests.length - requests > 2,
      'the join was read in several SKIP/FIRST chunks',
    );
    const rows = r.rows as { name: string; dnorpattern: string }[];
    const db = s.lab.state.cucm.db;
    assert.equal(rows.length, db.table('devicenumplanmap').size);
    assert.ok(rows.length > 150, `${rows.length} appearances`);
    const names = new Set(rows.map((x) => x.name));
    assert.equal(names.size, new Set(db.table('devicenumplanmap').rows.map((m) => m.fkdevice)).size);
  });

  it('groups phones per device pool in one answer, and answers a bad column with the Informix error', async () => {
    const r = await s.ok('auditor', 'cucm_axl_call', {
      host: cucm.name,
      operation: 'executeSQLQuery',
      args: {
        sql: `select dp.name pool, count(*) phones from device d, devicepool dp
               where d.fkdevicepool = dp.pkid and d.tkclass = 1 group by dp.name order by phones desc`,
      },
    });
    const rows = r.rows as { pool: string; phones: string }[];
    const db = s.lab.state.cucm.db;
    const phones = db.table('device').rows.filter((d) => d.tkclass === '1' && d.fkdevicepool !== null).length;
    assert.equal(
      rows.reduce((n, x) => n + Number(x.phones), 0),
      phones,
    );
    const bad = await s.fails('auditor', 'cucm_axl_call', {
      host: cucm.name,
      operation: 'executeSQLQuery',
      args: { sql: 'select d.nosuch from device d join numplan n on n.pkid = d.pkid' },
    });
    assert.equal(bad.error, 'AXLError');
    assert.match(bad.message, /-217/);
    assert.match(bad.message, /Column \(nosuch\) not found/);
  });
});
