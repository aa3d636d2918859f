import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import yauzl from 'yauzl';
import type { Lab } from '../../lab/index.ts';
import { labNode, labTrustedPem } from '../../lab/index.ts';
import { call, fixture, startTestLab } from './helpers.ts';
import { soapClient } from './soap-client.ts';

/** Takes only `schema/current/*` out of the toolkit zip, as a careful client does. */
async function extractCurrentSchema(zip: Buffer, into: string): Promise<string[]> {
  const zipfile = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(zip, { lazyEntries: true }, (err, z) => (err ? reject(err) : resolve(z))),
  );
  const names: string[] = [];
  await new Promise<void>((resolve, reject) => {
    zipfile.on('entry', (entry: yauzl.Entry) => {
      names.push(entry.fileName);
      const m = /^schema\/current\/([A-Za-z]+\.(wsdl|xsd))$/.exec(entry.fileName);
      if (!m) {
        zipfile.readEntry();
        return;
      }
      zipfile.openReadStream(entry, (err, stream) => {
        if (err) return reject(err);
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          writeFileSync(join(into, m[1] as string), Buffer.concat(chunks));
          zipfile.readEntry();
        });
      });
    });
    zipfile.on('end', resolve);
    zipfile.on('error', reject);
    zipfile.readEntry();
  });
  return names;
}

async function exercise(lab: Lab, wsdl: string): Promise<void> {
  const cucm = labNode(lab.info, 'cucm');
  assert.ok(cucm.urls.axl && cucm.credentials.axl);
  const client = await soapClient(wsdl, cucm.urls.axl, labTrustedPem(lab.info), cucm.credentials.axl);
  const before = lab.state.log.requests.length;

  const got = (await client.call('getPhone', { name: 'SEP0A1B2C3D4E02' })) as {
    return: { phone: { name: string; product: string; devicePoolName: unknown } };
  };
  assert.equal(got.return.phone.name, 'SEP0A1B2C3D4E02');
  assert.equal(got.return.phone.product, 'Cisco 7965');

  const listed = (await client.call('listPhone', {
    searchCriteria: { name: 'SEP0A1B2C3D4E%' },
    returnedTags: { name: '', description: '' },
    skip: 0,
    first: 3,
  })) as {
    return: { phone: { name: string }[] };
  };
  assert.deepEqual(
    listed.return.phone.map((p) => p.name),
    ['SEP0A1B2C3D4E01', 'SEP0A1B2C3D4E02', 'SEP0A1B2C3D4E03'],
  );

  const sql = (await client.call('executeSQLQuery', {
    sql: "select userid, firstname from enduser where userid = 'mlee'",
  })) as { return: { row: unknown } };
  const row = (Array.isArray(sql.return.row) ? sql.return.row[0] : sql.return.row) as Record<string, unknown>;
  assert.equal(row.userid, 'mlee');
  assert.equal(row.firstname, 'Mary');

  const seen = lab.state.log.requests
    .slice(before)
    .map((r) => `${r.service}:${r.operation ?? ''}:${r.status}`);
  assert.deepEqual(seen, ['axl:getPhone:200', 'axl:listPhone:200', 'axl:executeSQLQuery:200']);
}

describe('strong-soap against the lab', () => {
  let lab: Lab;
  let dir: string;
  before(async () => {
    lab = await startTestLab();
    dir = mkdtempSync(join(tmpdir(), 'lab-toolkit-'));
  });
  after(async () => {
    await lab.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("loads the lab's own toolkit schema from the zip and calls getPhone, listPhone, executeSQLQuery", async () => {
    const cucm = labNode(lab.info, 'cucm');
    assert.ok(cucm.urls.toolkit);
    const zip = await call(cucm.urls.toolkit, { ca: labTrustedPem(lab.info) });
    assert.equal(zip.status, 200);
    assert.equal(zip.headers['content-type'], 'application/zip');
    const names = await extractCurrentSchema(zip.body, dir);
    for (const folder of ['schema/15.0/', 'schema/current/']) {
      for (const f of ['AXLAPI.wsdl', 'AXLSoap.xsd', 'AXLEnums.xsd'])
        assert.ok(names.includes(folder + f), folder + f);
    }
    assert.ok(
      names.some((n) => n.startsWith('axlsqltoolkit/sample/')),
      'the zip carries the sample a client must leave alone',
    );
    await exercise(lab, join(dir, 'AXLAPI.wsdl'));
  });

  it('loads the real AXL 15.0 WSDL from the fixtures and calls the lab with it', async (t) => {
    const wsdl = fixture('cucm-axl-schema', '15.0', 'AXLAPI.wsdl');
    if (!wsdl) {
      t.skip(
        '../shared/fixtures/cucm-axl-schema/15.0 is absent (a fresh clone has no Cisco schema); the own-schema test covers the protocol',
      );
      return;
    }
    await exercise(lab, wsdl);
  });

  it('serves the real schema in the toolkit zip when axlSchemaDir points at it', async (t) => {
    const schemaDir = fixture('cucm-axl-schema', '15.0');
    if (!schemaDir) {
      t.skip('../shared/fixtures/cucm-axl-schema/15.0 is absent');
      return;
    }
    const real = await startTestLab({ axlSchemaDir: schemaDir });
    try {
      const cucm = labNode(real.info, 'cucm');
      assert.ok(cucm.urls.toolkit);
      const zip = await call(cucm.urls.toolkit, { ca: labTrustedPem(real.info) });
      const into = mkdtempSync(join(tmpdir(), 'lab-toolkit-real-'));
      try {
        await extractCurrentSchema(zip.body, into);
        assert.deepEqual(
          readFileSync(join(into, 'AXLSoap.xsd')),
          readFileSync(join(schemaDir, 'AXLSoap.xsd')),
        );
      } finally {
        rmSync(into, { recursive: true, force: true });
      }
    } finally {
      await real.stop();
    }
  });
});
