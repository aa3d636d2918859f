import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { XMLParser } from 'fast-xml-parser';
import type { Lab } from '../../lab/index.ts';
import { labTrustedPem } from '../../lab/index.ts';
import { axl, call, soapEnvelope, startTestLab } from './helpers.ts';

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  removeNSPrefix: true,
  parseTagValue: false,
});
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed SOAP answers are walked by path
const body = (text: string): any => (parser.parse(text) as { Envelope: { Body: unknown } }).Envelope.Body;

describe('CUCM AXL over HTTPS', () => {
  let lab: Lab;
  before(async () => {
    lab = await startTestLab({ axlWriteThrottle: { maxWrites: 1000, windowMs: 1000 } });
  });
  after(() => lab.stop());

  it('answers getCCMVersion and getPhone with uuids and foreign-key names', async () => {
    const version = await axl(lab, 'getCCMVersion', '');
    assert.equal(version.status, 200);
    assert.equal(
      body(version.text).getCCMVersionResponse.return.componentVersion.version,
      '15.0.1.11900(40)',
    );
    const phone = await axl(lab, 'getPhone', '<name>SEP0A1B2C3D4E01</name>');
    assert.equal(phone.status, 200);
    const p = body(phone.text).getPhoneResponse.return.phone;
    assert.match(p['@uuid'], /^\{[0-9A-F-]{36}\}$/);
    assert.equal(p.product, 'Cisco 8865');
    assert.equal(p.devicePoolName['#text'], 'DP_HQ');
    assert.equal(p.lines.line.dirn.pattern, '1001');
  });

  it('adds, updates and removes a phone, and the database shows each write', async () => {
    const add = await axl(
      lab,
      'addPhone',
      '<phone><name>SEPAABBCCDDEEFF</name><description>lab test</description><product>Cisco 8865</product><class>Phone</class><protocol>SIP</protocol><devicePoolName>Default</devicePoolName><lines><line><index>1</index><dirn><pattern>4321</pattern><routePartitionName>PT_Internal</routePartitionName></dirn></line></lines></phone>',
    );
    assert.equal(add.status, 200, add.text);
    const uuid = body(add.text).addPhoneResponse.return as string;
    const devices = lab.state.cucm.db.table('device');
    const row = devices.findBy('name', 'SEPAABBCCDDEEFF');
    assert.ok(row, 'the phone is in the device table');
    assert.equal(`{${(row.pkid as string).toUpperCase()}}`, uuid);
    assert.equal(row.tkmodel, '36670');
    assert.ok(lab.state.cucm.db.table('numplan').findBy('dnorpattern', '4321'), 'the new line was created');

    const update = await axl(
      lab,
      'updatePhone',
      '<name>SEPAABBCCDDEEFF</name><newName>SEPAABBCCDDEE00</newName><description>renamed</description>',
    );
    assert.equal(update.status, 200, update.text);
    assert.equal(devices.findBy('name', 'SEPAABBCCDDEE00')?.description, 'renamed');

    const sql = await axl(
      lab,
      'executeSQLQuery',
      "<sql>select name, description from device where name = 'SEPAABBCCDDEE00'</sql>",
    );
    assert.equal(
      body(sql.text).executeSQLQueryResponse.return.row.description,
      'renamed',
      'SQL sees the AXL write',
    );

    const remove = await axl(lab, 'removePhone', '<uuid>' + uuid + '</uuid>');
    assert.equal(remove.status, 200, remove.text);
    assert.equal(devices.findBy('name', 'SEPAABBCCDDEE00'), undefined);
    assert.equal(
      lab.state.cucm.db.table('devicenumplanmap').rows.filter((m) => m.fkdevice === row.pkid).length,
      0,
      'line appearances cascade',
    );
    const writes = lab.state.log.writes.filter((w) => w.node === 'cucm-pub').map((w) => w.operation);
    assert.deepEqual(writes.slice(-3), ['addPhone', 'updatePhone', 'removePhone']);
  });

  it('lists phones by wildcard with returnedTags, skip and first', async () => {
    const all = await axl(
      lab,
      'listPhone',
      '<searchCriteria><name>SEP0A1B2C3D4E%</name></searchCriteria><returnedTags><name/><model/></returnedTags>',
    );
    const phones = body(all.text).listPhoneResponse.return.phone;
    assert.equal(phones.length, 4);
    assert.deepEqual(Object.keys(phones[0]).sort(), ['@uuid', 'model', 'name']);
    const page = await axl(
      lab,
      'listPhone',
      '<searchCriteria><name>sep0a1b2c3d4e%</name></searchCriteria><returnedTags><name/></returnedTags><skip>1</skip><first>2</first>',
    );
    const names = body(page.text).listPhoneResponse.return.phone.map((p: { name: string }) => p.name);
    assert.deepEqual(names, ['SEP0A1B2C3D4E02', 'SEP0A1B2C3D4E03']);
  });

  it('answers HTTP 599 listing the supported versions for an unsupported schema version', async () => {
    const wrong = await axl(lab, 'getPhone', '<name>x</name>', { version: '11.5' });
    assert.equal(wrong.status, 599);
    assert.match(
      wrong.text,
      /Incorrect axl version\. Supported axl versions are 12\.0, 12\.5, 14\.0 and 15\.0/,
    );
    const older = await axl(lab, 'getCCMVersion', '', { version: '14.0' });
    assert.equal(older.status, 200);
    assert.match(older.text, /xmlns:ns="http:\/\/www\.cisco\.com\/AXL\/API\/14\.0"/);
  });

  it('faults as SOAP 1.1 with an axlError detail', async () => {
    const missing = await axl(lab, 'getPhone', '<name>SEPNOSUCHPHONE</name>');
    assert.equal(missing.status, 500);
    const fault = body(missing.text).Fault;
    assert.equal(fault.faultcode, 'soapenv:Server', 'AXL faults come from the server side');
    assert.equal(fault.faultstring, fault.detail.axlError.axlmessage);
    assert.equal(fault.detail.axlError.axlcode, '5007');
    assert.match(fault.detail.axlError.axlmessage, /Item not valid: The specified .*SEPNOSUCHPHONE/);
    assert.equal(fault.detail.axlError.request, 'getPhone');
    const duplicate = await axl(
      lab,
      'addRoutePartition',
      '<routePartition><name>PT_Internal</name></routePartition>',
    );
    assert.equal(body(duplicate.text).Fault.detail.axlError.axlcode, '-239');
    assert.equal(body(duplicate.text).Fault.faultcode, 'soapenv:Client', 'database errors as CUCM logs them');
  });

  it('refuses bad credentials with 401, and a user whose groups carry no AXL role too', async () => {
    const bad = await axl(lab, 'getCCMVersion', '', { auth: { user: 'axladmin', password: 'wrong' } });
    assert.equal(bad.status, 401);
    // Standard AXL API Access is a role: Standard CCM Super Users carries it, so its members may use AXL.
    const admin = await axl(lab, 'getCCMVersion', '', {
      auth: { user: 'CCMAdministrator', password: 'Lab-Ccm-Admin1!' },
    });
    assert.equal(admin.status, 200, 'Standard CCM Super Users carries Standard AXL API Access');
    const cti = { user: 'svc-cti-only', password: 'Lab-Cti-Only1!' };
    const add = await axl(
      lab,
      'addAppUser',
      `<appUser><userid>${cti.user}</userid><password>${cti.password}</password><associatedGroups><userGroup><name>Standard CTI Enabled</name></userGroup></associatedGroups></appUser>`,
    );
    assert.equal(add.status, 200, add.text);
    assert.equal(
      (await axl(lab, 'getCCMVersion', '', { auth: cti })).status,
      401,
      'no group carries the role',
    );
    const grant = await axl(
      lab,
      'updateAppUser',
      `<userid>${cti.user}</userid><associatedGroups><userGroup><name>AXL API Users</name></userGroup></associatedGroups>`,
    );
    assert.equal(grant.status, 200, grant.text);
    assert.equal(
      (await axl(lab, 'getCCMVersion', '', { auth: cti })).status,
      200,
      'a custom group carries it',
    );
    assert.equal((await axl(lab, 'removeAppUser', `<userid>${cti.user}</userid>`)).status, 200);
  });

  it('pages SQL with SKIP and FIRST and faults on hostile or unsupported statements', async () => {
    const page = await axl(
      lab,
      'executeSQLQuery',
      '<sql>SELECT SKIP 1 FIRST 2 name FROM device WHERE tkclass = 1 ORDER BY name</sql>',
    );
    const rows = body(page.text).executeSQLQueryResponse.return.row;
    assert.deepEqual(
      rows.map((r: { name: string }) => r.name),
      ['SEP0A1B2C3D4E02', 'SEP0A1B2C3D4E03'],
    );
    for (const sql of [
      'select * from device; delete from device',
      'drop table device',
      'select name from device union select userid from enduser',
      'select nosuchcolumn from device',
      'select * from nosuchtable',
      "select name from device where name = 'x' --",
      'select '.repeat(20_000),
    ]) {
      const answer = await axl(lab, 'executeSQLQuery', `<sql><![CDATA[${sql}]]></sql>`);
      assert.equal(answer.status, 500, sql);
      assert.match(body(answer.text).Fault.detail.axlError.axlcode, /^-\d+$/, sql);
    }
    assert.ok(lab.state.cucm.db.table('device').size > 4, 'nothing was deleted');
    const update = await axl(
      lab,
      'executeSQLUpdate',
      "<sql>update enduser set department = 'Support' where userid = 'rjones'</sql>",
    );
    assert.equal(body(update.text).executeSQLUpdateResponse.return.rowsUpdated, '1');
    assert.equal(lab.state.cucm.db.table('enduser').findBy('userid', 'rjones')?.department, 'Support');
  });

  it('refuses a DOCTYPE (no entity is ever expanded) and malformed XML with a fault', async () => {
    const node = lab.info.nodes[0];
    assert.ok(node?.urls.axl && node.credentials.axl);
    const xxe = `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>${soapEnvelope('getPhone', '<name>&e;</name>')}`;
    for (const payload of [xxe, '<soapenv:Envelope>']) {
      const answer = await call(node.urls.axl, {
        body: payload,
        ca: labTrustedPem(lab.info),
        auth: node.credentials.axl,
      });
      assert.equal(answer.status, 500);
      assert.doesNotMatch(answer.text, /root:/);
      assert.match(answer.text, /<axlcode>5001<\/axlcode>/);
    }
  });
});

describe('AXL limits', () => {
  let lab: Lab;
  before(async () => {
    lab = await startTestLab({
      axlWriteThrottle: { maxWrites: 5, windowMs: 60_000 },
      axlMaxResponseBytes: 2_500,
    });
  });
  after(() => lab.stop());

  it('answers 503 to a burst of writes past the threshold', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const r = await axl(
        lab,
        'addRoutePartition',
        `<routePartition><name>PT_Burst_${i}</name></routePartition>`,
      );
      statuses.push(r.status);
    }
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 503, 503, 503]);
    assert.equal(
      lab.state.cucm.db.table('routepartition').rows.filter((r) => r.name?.startsWith('PT_Burst_')).length,
      5,
    );
    const read = await axl(lab, 'getCCMVersion', '');
    assert.equal(read.status, 200, 'reads are not throttled');
  });

  it('faults "Query request too large" over the size bound, and a smaller page passes', async () => {
    const big = await axl(lab, 'listPhone', '<searchCriteria><name>%</name></searchCriteria><returnedTags/>');
    assert.equal(big.status, 500);
    const message = body(big.text).Fault.detail.axlError.axlmessage as string;
    const m =
      /^Query request too large\. Total rows matched: (\d+) rows\. Suggested row fetch: less than (\d+) rows$/.exec(
        message,
      );
    assert.ok(m, message);
    assert.equal(Number(m[1]), 4);
    const small = await axl(
      lab,
      'listPhone',
      `<searchCriteria><name>%</name></searchCriteria><returnedTags/><first>${Number(m[2]) - 1}</first>`,
    );
    assert.equal(small.status, 200, small.text);
  });
});
