import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { XMLParser } from 'fast-xml-parser';
import type { Lab } from '../../lab/index.ts';
import { labNode, labTrustedPem } from '../../lab/index.ts';
import type { HttpCall } from './helpers.ts';
import { call, startTestLab } from './helpers.ts';

const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', parseTagValue: false });

describe('Unity Connection CUPI', () => {
  let lab: Lab;
  let base: string;
  let auth: { user: string; password: string };
  before(async () => {
    lab = await startTestLab();
    const cuc = labNode(lab.info, 'cuc');
    base = cuc.urls.cupi as string;
    auth = cuc.credentials.cupi as { user: string; password: string };
  });
  after(() => lab.stop());

  const json = (path: string, c: HttpCall = {}) =>
    call(`${base}${path}`, {
      ca: labTrustedPem(lab.info),
      auth,
      ...c,
      headers: { accept: 'application/json', ...c.headers },
    });

  it('gives the product version in JSON', async () => {
    const r = await json('version/product/');
    assert.equal(r.status, 200);
    assert.deepEqual(JSON.parse(r.text), {
      name: 'Cisco Unity Connection Version',
      version: '15.0.1.10000-1',
    });
  });

  it('answers XML by default and JSON on request, with @total', async () => {
    const asXml = await call(`${base}users`, { ca: labTrustedPem(lab.info), auth });
    assert.match(String(asXml.headers['content-type']), /^application\/xml/);
    const doc = xml.parse(asXml.text) as { Users: { '@total': string; User: unknown[] } };
    assert.equal(doc.Users['@total'], '6');
    assert.equal(doc.Users.User.length, 6);
    const asJson = JSON.parse((await json('users')).text) as { '@total': string; User: unknown[] };
    assert.equal(asJson['@total'], '6');
    assert.ok(Array.isArray(asJson.User));
  });

  it('returns a single hit as an object and zero hits as @total only', async () => {
    const one = JSON.parse((await json('users?query=(alias%20is%20jsmith)')).text) as {
      '@total': string;
      User: { Alias: string };
    };
    assert.equal(one['@total'], '1');
    assert.ok(!Array.isArray(one.User), 'a single hit is an object');
    assert.equal(one.User.Alias, 'jsmith');
    const two = JSON.parse(
      (await json('users?query=(alias%20startswith%20ab)&sort=(alias%20desc)')).text,
    ) as { User: { Alias: string }[] };
    assert.deepEqual(
      two.User.map((u) => u.Alias),
      ['abrown', 'abaker'],
    );
    assert.deepEqual(JSON.parse((await json('users?query=(alias%20startswith%20zz)')).text), {
      '@total': '0',
    });
    const page = JSON.parse((await json('users?sort=(alias%20asc)&rowsPerPage=2&pageNumber=2')).text) as {
      '@total': string;
      User: { Alias: string }[];
    };
    assert.equal(page['@total'], '6');
    assert.deepEqual(
      page.User.map((u) => u.Alias),
      ['jsmith', 'mlee'],
    );
  });

  it('creates with 201 and Location, updates, deletes, and keeps the state', async () => {
    const missingTemplate = await json('users', {
      body: JSON.stringify({ Alias: 'newbie' }),
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(missingTemplate.status, 400);
    const created = await json('users?templateAlias=voicemailusertemplate', {
      body: JSON.stringify({ Alias: 'newbie', FirstName: 'New', LastName: 'Bie', DtmfAccessId: '1099' }),
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(created.status, 201, created.text);
    const location = String(created.headers.location);
    assert.match(location, /^https:\/\/127\.0\.0\.1:\d+\/vmrest\/users\/[0-9a-f-]{36}$/);
    const id = location.split('/').pop() as string;
    assert.equal(lab.state.cuc.cupi.collection('users').items.get(id)?.Alias, 'newbie');

    const put = await call(location, {
      method: 'PUT',
      ca: labTrustedPem(lab.info),
      auth,
      body: '<User><DisplayName>New Bie (temp)</DisplayName></User>',
      headers: { 'content-type': 'application/xml' },
    });
    assert.equal(put.status, 204);
    assert.equal(lab.state.cuc.cupi.collection('users').items.get(id)?.DisplayName, 'New Bie (temp)');

    const del = await call(location, { method: 'DELETE', ca: labTrustedPem(lab.info), auth });
    assert.equal(del.status, 204);
    const gone = await json(`users/${id}`);
    assert.equal(gone.status, 404);
    assert.equal((JSON.parse(gone.text) as { errors: { code: string } }).errors.code, 'NOT_FOUND');
    const badQuery = await call(`${base}users?query=(alias%20near%20x)`, {
      ca: labTrustedPem(lab.info),
      auth,
    });
    assert.equal(badQuery.status, 400);
    assert.match(badQuery.text, /<ErrorDetails><errors><code>INVALID_PARAMETER<\/code>/);
  });

  it('shows PIN flags without the PIN and applies the PIN policy (weak profile: 4 digits, trivial allowed)', async () => {
    const users = JSON.parse((await json('users?query=(alias%20is%20rjones)')).text) as {
      User: { ObjectId: string };
    };
    const pin = await json(`users/${users.User.ObjectId}/credential/pin`);
    const view = JSON.parse(pin.text) as Record<string, string>;
    assert.equal(view.DoesntExpire, 'true');
    assert.equal(view.pin, undefined);
    assert.equal(view.Credentials, undefined);
    const change = await json(`users/${users.User.ObjectId}/credential/pin`, {
      method: 'PUT',
      body: JSON.stringify({ Credentials: '1234' }),
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(change.status, 204);
    assert.equal(lab.state.cuc.cupi.pins.get(users.User.ObjectId)?.pin, '1234');
  });

  it('authenticates once, then accepts the JSESSIONID cookie instead of credentials', async () => {
    const start = lab.state.cuc.sessions.authentications;
    const first = await json('users?rowsPerPage=1');
    const cookie = String((first.headers['set-cookie'] as string[])[0]).split(';')[0] as string;
    assert.match(cookie, /^JSESSIONID=[0-9A-F]{32}$/);
    for (let i = 0; i < 3; i++) {
      const again = await call(`${base}users?rowsPerPage=1`, {
        ca: labTrustedPem(lab.info),
        headers: { cookie, accept: 'application/json' },
      });
      assert.equal(again.status, 200);
      assert.equal(again.headers['set-cookie'], undefined);
    }
    assert.equal(lab.state.cuc.sessions.authentications - start, 1, 'one Basic check for four requests');
    const noAuth = await call(`${base}users`, { ca: labTrustedPem(lab.info) });
    assert.equal(noAuth.status, 401);
    const stale = await call(`${base}users`, {
      ca: labTrustedPem(lab.info),
      headers: { cookie: 'JSESSIONID=0000' },
    });
    assert.equal(stale.status, 401);
  });

  it('lists distribution lists and classes of service, and reads one by ObjectId', async () => {
    const dls = JSON.parse((await json('distributionlists')).text) as {
      '@total': string;
      DistributionList: { ObjectId: string; Alias: string; DisplayName: string; URI: string }[];
    };
    assert.equal(dls['@total'], '2');
    assert.deepEqual(dls.DistributionList.map((d) => d.Alias).sort(), [
      'allvoicemailusers',
      'undeliverablemessages',
    ]);
    const dl = dls.DistributionList[0]!;
    const one = JSON.parse((await json(`distributionlists/${dl.ObjectId}`)).text) as Record<string, string>;
    assert.equal(one.ObjectId, dl.ObjectId);
    assert.equal(one.URI, `/vmrest/distributionlists/${dl.ObjectId}`);
    assert.equal(
      one.DistributionListMembersURI,
      `/vmrest/distributionlists/${dl.ObjectId}/distributionlistmembers`,
    );
    const coses = xml.parse((await call(`${base}coses`, { ca: labTrustedPem(lab.info), auth })).text) as {
      Coses: { '@total': string; Cos: { ObjectId: string; DisplayName: string }[] };
    };
    assert.equal(coses.Coses['@total'], '2');
    const vm = coses.Coses.Cos.find((c) => c.DisplayName === 'Voice Mail User COS');
    assert.ok(vm);
    const cos = JSON.parse((await json(`coses/${vm.ObjectId}`)).text) as Record<string, string>;
    assert.equal(cos.MaxMsgLength, '300');
    assert.equal((await json('coses/00000000-0000-0000-0000-000000000000')).status, 404);
  });

  it('serves at most 2,000 objects a page, whatever rowsPerPage asks', async () => {
    const contacts = lab.state.cuc.cupi.define('test/manyobjects', 'Many', 'One', ['Alias'], 'Alias');
    for (let i = 0; i < 2100; i++) lab.state.cuc.cupi.create(contacts, { Alias: `a${i}` });
    const page = JSON.parse((await json('test/manyobjects?rowsPerPage=5000&pageNumber=1')).text) as {
      '@total': string;
      One: unknown[];
    };
    assert.equal(page['@total'], '2100');
    assert.equal(page.One.length, 2000);
    const second = JSON.parse((await json('test/manyobjects?rowsPerPage=2000&pageNumber=2')).text) as {
      One: unknown[];
    };
    assert.equal(second.One.length, 100);
    lab.state.cuc.cupi.collections.delete('test/manyobjects');
  });

  it('serves CUPI on a second port, as a real node does on 443 beside 8443', async () => {
    const cuc = labNode(lab.info, 'cuc');
    assert.ok(cuc.ports.https443 && cuc.ports.https443 !== cuc.ports.https);
    const r = await call(`${cuc.urls.cupi443 as string}version/product`, {
      ca: labTrustedPem(lab.info),
      auth,
      headers: { accept: 'application/json' },
    });
    assert.equal(r.status, 200);
    assert.match(r.text, /Cisco Unity Connection Version/);
  });
});
