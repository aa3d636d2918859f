import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { XMLParser } from 'fast-xml-parser';
import type { Lab } from '../../lab/index.ts';
import { axl, startTestLab } from './helpers.ts';

const parser = new XMLParser({
  removeNSPrefix: true,
  parseTagValue: false,
  isArray: (name) => name === 'row',
});
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed SOAP answers are walked by path
const body = (text: string): any => (parser.parse(text) as { Envelope: { Body: unknown } }).Envelope.Body;

describe('AXL executeSQLQuery with joins, grouping and the catalog, over HTTPS', () => {
  let lab: Lab;
  before(async () => {
    lab = await startTestLab();
  });
  after(() => lab.stop());

  const query = async (sql: string): Promise<Record<string, string | string[]>[]> => {
    const answer = await axl(lab, 'executeSQLQuery', `<sql><![CDATA[${sql}]]></sql>`);
    assert.equal(answer.status, 200, answer.text);
    return (body(answer.text).executeSQLQueryResponse.return?.row ?? []) as Record<string, string>[];
  };

  it('joins device, devicenumplanmap and numplan into one row per line appearance', async () => {
    const rows = await query(
      `select d.name, n.dnorpattern, m.numplanindex from device d
         inner join devicenumplanmap m on m.fkdevice = d.pkid
         inner join numplan n on n.pkid = m.fknumplan
        order by d.name, m.numplanindex`,
    );
    const db = lab.state.cucm.db;
    assert.equal(rows.length, db.table('devicenumplanmap').size);
    const first = db.table('devicenumplanmap').rows[0];
    assert.ok(first);
    const device = db.table('device').byPkid(first.fkdevice);
    const line = db.table('numplan').byPkid(first.fknumplan);
    assert.ok(
      rows.some((r) => r.name === device?.name && r.dnorpattern === line?.dnorpattern),
      'a known appearance is in the answer',
    );
  });

  it('counts with GROUP BY, keeps devices without lines in an Informix OUTER join, and lists systables', async () => {
    const perDevice = await query(
      `select d.name, count(m.pkid) lines from device d, outer devicenumplanmap m
        where m.fkdevice = d.pkid group by d.name order by d.name`,
    );
    const db = lab.state.cucm.db;
    assert.equal(perDevice.length, db.table('device').size, 'every device, with or without lines');
    const total = perDevice.reduce((n, r) => n + Number(r.lines), 0);
    assert.equal(total, db.table('devicenumplanmap').size);
    const tables = await query('SELECT tabname FROM systables WHERE tabid > 99 ORDER BY tabname');
    const names = tables.map((r) => r.tabname);
    for (const t of ['device', 'numplan', 'devicenumplanmap', 'enduser', 'routepartition'])
      assert.ok(names.includes(t), `systables lists ${t}`);
    assert.equal(names.length, db.tableNames().length);
  });

  it('names unlabelled aggregates and expressions, and repeats a column two tables share', async () => {
    const [counted] = await query(
      'select count(*), max(name), upper(name) from device group by 3 order by 1 desc',
    );
    assert.ok(counted);
    assert.deepEqual(Object.keys(counted), ['count', 'max', 'expression']);
    const [both] = await query(
      'select first 1 d.pkid, n.pkid from device d, devicenumplanmap m, numplan n where m.fkdevice = d.pkid and n.pkid = m.fknumplan',
    );
    assert.ok(Array.isArray(both?.pkid) && both.pkid.length === 2, 'two <pkid> elements');
  });

  it('answers unsupported SQL with the Informix code and text in the AXL fault', async () => {
    const cases: [string, string, string][] = [
      ['select name from device union select userid from enduser', '-201', 'A syntax error has occurred.'],
      ['select * from nosuchtable', '-206', 'The specified table (nosuchtable) is not in the database.'],
      [
        'select d.nosuch from device d join numplan n on n.pkid = d.pkid',
        '-217',
        'Column (nosuch) not found in any table in the query (or SLV is undefined).',
      ],
      ['select name, count(*) from device', '-294', 'The column (name) must be in the GROUP BY list.'],
    ];
    for (const [sql, code, message] of cases) {
      const answer = await axl(lab, 'executeSQLQuery', `<sql><![CDATA[${sql}]]></sql>`);
      assert.equal(answer.status, 500, sql);
      const fault = body(answer.text).Fault;
      assert.equal(fault.faultstring, message, sql);
      assert.equal(fault.detail.axlError.axlcode, code, sql);
      assert.equal(fault.detail.axlError.axlmessage, message, sql);
      assert.doesNotMatch(answer.text, /does not support/);
    }
  });
});
