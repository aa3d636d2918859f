// Every object family of the lab's AXL over HTTPS, driven the way an admin does: list, get, add a copy
// under a new key, update it, apply/reset/restart it, remove it; the singletons read and update.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { XMLParser } from 'fast-xml-parser';
import type { Lab } from '../../lab/index.ts';
import type { Family } from '../../lab/cucm/axl/family.ts';
import { CUCM_FAMILIES } from '../../lab/cucm/axl/operations.ts';
import type { XmlOut } from '../../lab/xml/write.ts';
import { toXml } from '../../lab/xml/write.ts';
import { axl, startTestLab } from './helpers.ts';

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  removeNSPrefix: true,
  parseTagValue: false,
});
type Obj = Record<string, XmlOut>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed SOAP answers are walked by path
const body = (text: string): any => (parser.parse(text) as { Envelope: { Body: unknown } }).Envelope.Body;
const text = (v: XmlOut): string =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? String(v['#text'] ?? '') : String(v ?? '');

/** The key elements of an object as a get/update/remove names it (foreign keys by their name). */
function keysOf(family: Family, o: Obj): string {
  return family.keys.map((k) => toXml(k, text(o[k]))).join('');
}

describe('lab AXL families over HTTPS', () => {
  let lab: Lab;
  before(async () => {
    lab = await startTestLab({ axlWriteThrottle: { maxWrites: 100000, windowMs: 1000 } });
  });
  after(() => lab.stop());

  const ok = async (op: string, xml: string): Promise<unknown> => {
    const r = await axl(lab, op, xml);
    assert.equal(r.status, 200, `${op}: ${r.text.slice(0, 400)}`);
    return body(r.text)[`${op}Response`];
  };

  it('lists, gets, adds, updates, applies, resets, restarts and removes every family', async () => {
    let n = 0;
    for (const family of CUCM_FAMILIES) {
      if (family.singleton || !family.ops.includes('list')) continue;
      n++;
      const search = family.search[0] as string;
      const listed = (await ok(
        `list${family.name}`,
        `<searchCriteria><${search}>%</${search}></searchCriteria><returnedTags/><first>1</first>`,
      )) as { return: Record<string, Obj> };
      const first = listed.return[family.tag];
      assert.ok(first && !Array.isArray(first), `list${family.name} returns one object with first=1`);
      const got = (
        (await ok(`get${family.name}`, `<uuid>${String(first['@uuid'])}</uuid>`)) as {
          return: Record<string, Obj>;
        }
      ).return[family.tag] as Obj;
      assert.equal(got['@uuid'], first['@uuid'], `get${family.name} answers the listed object`);
      if (family.ops.includes('get') && family.keys.length > 0) {
        const byKey = (await ok(`get${family.name}`, keysOf(family, got))) as { return: Record<string, Obj> };
        assert.equal(byKey.return[family.tag]?.['@uuid'], got['@uuid'], `get${family.name} by its keys`);
      }
      if (!family.ops.includes('add')) continue;

      const key = family.keys[0] as string;
      const copy: Obj = { ...got, [key]: /pattern|dirn/.test(key) ? `55${n}X` : `LABT_${family.name}` };
      const added = (await ok(`add${family.name}`, toXml(family.tag, copy as XmlOut))) as { return: string };
      assert.match(added.return, /^\{[0-9A-F-]{36}\}$/, `add${family.name} answers the new uuid`);
      const readBack = (
        (await ok(`get${family.name}`, `<uuid>${added.return}</uuid>`)) as {
          return: Record<string, Obj>;
        }
      ).return[family.tag] as Obj;
      assert.equal(text(readBack[key]), copy[key]);

      if (family.ops.includes('update')) {
        const described = family.fields.some((f) => f.axl === 'description');
        const change = described
          ? '<description>changed by the test</description>'
          : family.rename
            ? toXml(family.rename.element, `${String(copy[key])}2`)
            : '';
        await ok(`update${family.name}`, `<uuid>${added.return}</uuid>${change}`);
        const after = (
          (await ok(`get${family.name}`, `<uuid>${added.return}</uuid>`)) as {
            return: Record<string, Obj>;
          }
        ).return[family.tag] as Obj;
        if (described) assert.equal(after.description, 'changed by the test', `update${family.name}`);
        else if (family.rename)
          assert.equal(text(after[key]), `${String(copy[key])}2`, `update${family.name}`);
      }
      for (const action of ['apply', 'reset', 'restart'] as const) {
        if (!family.ops.includes(action)) continue;
        const r = (await ok(`${action}${family.name}`, `<uuid>${added.return}</uuid>`)) as { return: string };
        assert.equal(r.return, added.return, `${action}${family.name}`);
        assert.ok(
          lab.state.log.writes.some((w) => w.operation === `${action}${family.name}`),
          `${action}${family.name} is recorded`,
        );
      }
      await ok(`remove${family.name}`, `<uuid>${added.return}</uuid>`);
      const gone = await axl(lab, `get${family.name}`, `<uuid>${added.return}</uuid>`);
      assert.equal(gone.status, 500);
      const fault = body(gone.text).Fault;
      assert.equal(fault.faultcode, 'soapenv:Server');
      assert.equal(fault.detail.axlError.axlcode, '5007');
      assert.equal(fault.detail.axlError.request, `get${family.name}`);
    }
    assert.ok(n >= 45, `${n} families exercised`);
  });

  it('reads and updates the LDAP singletons, syncs a directory and resets any device', async () => {
    const system = (await ok('getLdapSystem', '')) as { return: { ldapSystem: Obj } };
    assert.equal(system.return.ldapSystem.syncEnabled, 'false');
    await ok('updateLdapSystem', '<syncEnabled>true</syncEnabled><ldapServer>OpenLDAP</ldapServer>');
    const after = (await ok('getLdapSystem', '')) as { return: { ldapSystem: Obj } };
    assert.equal(after.return.ldapSystem.syncEnabled, 'true');
    assert.equal(after.return.ldapSystem.ldapServer, 'OpenLDAP');
    await ok(
      'updateLdapAuthentication',
      '<authenticateEndUsers>true</authenticateEndUsers><ldapPassword>x</ldapPassword>',
    );
    const auth = (await ok('getLdapAuthentication', '')) as { return: { ldapAuthentication: Obj } };
    assert.equal(auth.return.ldapAuthentication.authenticateEndUsers, 'true');
    assert.equal(
      auth.return.ldapAuthentication.ldapPassword,
      undefined,
      'the bind password is never read back',
    );

    assert.equal(
      ((await ok('getLdapSyncStatus', '<name>Corporate AD</name>')) as { return: string }).return,
      'Sync not performed',
    );
    await ok('doLdapSync', '<name>Corporate AD</name><sync>true</sync>');
    assert.match(
      ((await ok('getLdapSyncStatus', '<name>Corporate AD</name>')) as { return: string }).return,
      /successfully/,
    );

    const reset = (await ok(
      'doDeviceReset',
      '<deviceName>SEP0A1B2C3D4E01</deviceName><isHardReset>false</isHardReset>',
    )) as {
      return: string;
    };
    assert.equal(reset.return, 'true');
    const typed = await ok(
      'doDeviceReset',
      '<deviceName>SIP_TO_SBC</deviceName><deviceResetType>Apply Configuration</deviceResetType>',
    );
    assert.ok(typed);
    const missing = await axl(
      lab,
      'doDeviceReset',
      '<deviceName>SEPNOSUCH</deviceName><isHardReset>true</isHardReset>',
    );
    assert.equal(body(missing.text).Fault.detail.axlError.axlcode, '5007');
    const neither = await axl(lab, 'doDeviceReset', '<deviceName>SEP0A1B2C3D4E01</deviceName>');
    assert.equal(body(neither.text).Fault.detail.axlError.axlcode, '5003');
  });

  it('answers the dial plan an admin reads daily: route patterns to route lists, hunt pilots to hunt lists', async () => {
    const patterns = (await ok(
      'listRoutePattern',
      '<searchCriteria><pattern>9.%</pattern></searchCriteria><returnedTags><pattern/><routePartitionName/></returnedTags>',
    )) as { return: { routePattern: Obj[] } };
    assert.deepEqual(patterns.return.routePattern.map((p) => p.pattern).sort(), [
      '9.011!',
      '9.011!#',
      '9.[2-9]XXXXXXXXX',
    ]);
    assert.deepEqual(
      Object.keys(patterns.return.routePattern[0] as Obj).filter((k) => !k.startsWith('@')),
      ['pattern', 'routePartitionName'],
    );
    const intl = (await ok(
      'getRoutePattern',
      '<pattern>9.011!</pattern><routePartitionName>PT_International</routePartitionName>',
    )) as {
      return: { routePattern: { destination: { routeListName: Obj } } };
    };
    assert.equal(text(intl.return.routePattern.destination.routeListName), 'RL_PSTN');
    const pilot = (await ok(
      'getHuntPilot',
      '<pattern>1900</pattern><routePartitionName>PT_Internal</routePartitionName>',
    )) as {
      return: { huntPilot: Obj };
    };
    assert.equal(text(pilot.return.huntPilot.huntListName), 'HL_Sales');
    const sql = await ok(
      'executeSQLQuery',
      '<sql>select dnorpattern from numplan where tkpatternusage = 7</sql>',
    );
    assert.equal((sql as { return: { row: Obj } }).return.row.dnorpattern, '1900', 'SQL sees the hunt pilot');
  });
});
