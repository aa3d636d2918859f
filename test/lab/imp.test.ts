import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { XMLParser } from 'fast-xml-parser';
import type { Lab } from '../../lab/index.ts';
import { axl, startTestLab } from './helpers.ts';

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  removeNSPrefix: true,
  parseTagValue: false,
  isArray: (n) => ['assignedPresenceUsers', 'unassignedPresenceUsers', 'row'].includes(n),
});
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed SOAP answers are walked by path
const body = (text: string): any => (parser.parse(text) as { Envelope: { Body: unknown } }).Envelope.Body;

describe('IM&P AXL', () => {
  let lab: Lab;
  before(async () => {
    lab = await startTestLab();
  });
  after(() => lab.stop());

  it('reports its own version and serves presence objects', async () => {
    const v = await axl(lab, 'getCCMVersion', '', { node: 'imp' });
    assert.equal(body(v.text).getCCMVersionResponse.return.componentVersion.version, '15.0.1.10000(12)');
    const group = await axl(lab, 'getPresenceRedundancyGroup', '<name>DefaultCUPSubcluster</name>', {
      node: 'imp',
    });
    const g = body(group.text).getPresenceRedundancyGroupResponse.return.presenceRedundancyGroup;
    assert.equal(g.server1['#text'], 'imp-pub');
    assert.equal(g.haEnabled, 'false', 'weak profile: high availability off');
    assert.equal(g.numUsers, '2');
    const phone = await axl(lab, 'getPhone', '<name>SEP0A1B2C3D4E01</name>', { node: 'imp' });
    assert.equal(phone.status, 500, 'IM&P does not serve CUCM device operations');
  });

  it('assigns a presence user, and the IM&P database and the lists agree', async () => {
    const before = body(
      (
        await axl(lab, 'listUnassignedPresenceUsers', '<searchCriteria><userid>%</userid></searchCriteria>', {
          node: 'imp',
        })
      ).text,
    );
    assert.deepEqual(
      before.listUnassignedPresenceUsersResponse.return.unassignedPresenceUsers.map(
        (u: { userid: string }) => u.userid,
      ),
      ['rjones'],
    );
    const assign = await axl(lab, 'assignPresenceUser', '<userid>rjones</userid><server>imp-sub1</server>', {
      node: 'imp',
    });
    assert.equal(assign.status, 200, assign.text);
    const db = lab.state.imp.db;
    const rjones = db.table('enduser').findBy('userid', 'rjones');
    const assignment = db.table('presenceuserassignment').findBy('fkenduser', rjones?.pkid as string);
    assert.equal(db.table('processnode').byPkid(assignment?.fkprocessnode)?.name, 'imp-sub1');
    const listed = body(
      (
        await axl(
          lab,
          'listAssignedPresenceUsers',
          '<searchCriteria><server>imp-sub1</server></searchCriteria>',
          { node: 'imp' },
        )
      ).text,
    );
    const users = listed.listAssignedPresenceUsersResponse.return.assignedPresenceUsers;
    assert.equal(users.length, 1);
    assert.equal(users[0].userid, 'rjones');
    assert.equal(users[0].presenceRedundancyGroup, 'DefaultCUPSubcluster');
    const sql = body(
      (
        await axl(lab, 'executeSQLQuery', '<sql>select count(*) from presenceuserassignment</sql>', {
          node: 'imp',
        })
      ).text,
    );
    assert.equal(sql.executeSQLQueryResponse.return.row[0].count, '3');
    assert.equal(
      (await axl(lab, 'unassignPresenceUser', '<userid>rjones</userid>', { node: 'imp' })).status,
      200,
    );
    assert.equal(db.table('presenceuserassignment').size, 2);
    assert.deepEqual(
      lab.state.log.writes.filter((w) => w.node === 'imp-pub').map((w) => w.operation),
      ['assignPresenceUser', 'unassignPresenceUser'],
    );
  });
});
