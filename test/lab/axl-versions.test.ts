// AXL versions as real nodes serve them: the SOAPAction chooses the schema, a request without one gets
// the oldest schema served, and a version the node does not serve is HTTP 599 in the wording asked for.
// The 14.0 cluster's publisher serves 11.0 to 14.0 and its toolkit is a 14.0 one.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import yauzl from 'yauzl';
import type { Lab, LabNodeInfo } from '../../lab/index.ts';
import { labNode, labTrustedPem } from '../../lab/index.ts';
import { AXL_VERSION_WORDINGS, axlSchemasFor, wrongVersionPage } from '../../lab/cucm/versions.ts';
import type { HttpAnswer } from './helpers.ts';
import { call, soapEnvelope, startTestLab } from './helpers.ts';

function post(lab: Lab, node: LabNodeInfo, body: string, soapAction?: string): Promise<HttpAnswer> {
  return call(node.urls.axl as string, {
    body,
    headers: { 'content-type': 'text/xml; charset=utf-8', ...(soapAction ? { soapaction: soapAction } : {}) },
    ca: labTrustedPem(lab.info),
    auth: node.credentials.axl as { user: string; password: string },
  });
}

const ns = (v: string): string => `http://www.cisco.com/AXL/API/${v}`;
const answerNs = (text: string): string | undefined => /xmlns:ns="([^"]+)"/.exec(text)?.[1];

function zipEntries(zip: Buffer): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (err, file) => {
      if (err || !file) return reject(err ?? new Error('no zip'));
      const out = new Map<string, string>();
      file.on('entry', (e: yauzl.Entry) => {
        file.openReadStream(e, (err2, stream) => {
          if (err2 || !stream) return reject(err2 ?? new Error('no stream'));
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            out.set(e.fileName, Buffer.concat(chunks).toString('utf8'));
            file.readEntry();
          });
        });
      });
      file.on('end', () => resolve(out));
      file.readEntry();
    });
  });
}

describe('lab AXL versions', () => {
  let lab: Lab;
  let pub: LabNodeInfo;
  let legacy: LabNodeInfo;
  before(async () => {
    lab = await startTestLab({ legacyCluster: true, axlVersionWording: 'majors' });
    pub = labNode(lab.info, 'cucm');
    legacy = labNode(lab.info, 'cucm', 'cucm14-pub');
  });
  after(() => lab.stop());

  it('serves the schemas of its release: 15 serves 12.0 to 15.0, 14 serves 11.0 to 14.0', () => {
    assert.deepEqual(axlSchemasFor('15.0.1.11900(40)'), ['12.0', '12.5', '14.0', '15.0']);
    assert.deepEqual(axlSchemasFor('14.0.1.13900-155'), ['11.0', '11.5', '12.0', '12.5', '14.0']);
    assert.deepEqual(axlSchemasFor('12.5.1.17900-64'), ['10.0', '10.5', '11.0', '11.5', '12.0', '12.5']);
  });

  it('reads a request without a SOAPAction version with the oldest schema served', async () => {
    const body = soapEnvelope('getCCMVersion', '', ns('15.0'));
    const bare = await post(lab, pub, body);
    assert.equal(bare.status, 200, bare.text);
    assert.equal(answerNs(bare.text), ns('12.0'));
    const chosen = await post(lab, pub, body, '"CUCM:DB ver=15.0 getCCMVersion"');
    assert.equal(answerNs(chosen.text), ns('15.0'));
    // The SOAPAction, not the body's namespace, chooses: quotes are optional.
    const older = await post(lab, pub, body, 'CUCM:DB ver=14.0 getCCMVersion');
    assert.equal(answerNs(older.text), ns('14.0'));
    const legacyBare = await post(lab, legacy, soapEnvelope('getCCMVersion', '', ns('14.0')));
    assert.equal(answerNs(legacyBare.text), ns('11.0'));
  });

  it('answers HTTP 599 in the wording asked for, and the 14.0 node reports its release', async () => {
    const wrong = await post(
      lab,
      legacy,
      soapEnvelope('getCCMVersion', '', ns('15.0')),
      '"CUCM:DB ver=15.0 getCCMVersion"',
    );
    assert.equal(wrong.status, 599);
    assert.match(wrong.text, /Supported axl versions are 11\.x, 12\.x and 14\.x/);
    const ok = await post(
      lab,
      legacy,
      soapEnvelope('getCCMVersion', '', ns('14.0')),
      '"CUCM:DB ver=14.0 getCCMVersion"',
    );
    assert.equal(ok.status, 200);
    assert.match(ok.text, /<version>14\.0\.1\.13900\(155\)<\/version>/);
    assert.match(wrong.text, /Incorrect AXL version/);
    const served = axlSchemasFor('14.0.1.13900-155');
    assert.match(wrongVersionPage(served, 'and'), /are 11\.0, 11\.5, 12\.0, 12\.5 and 14\.0</);
    assert.match(
      wrongVersionPage(served, 'tomcat-x'),
      /HTTP Status 599 - Incorrect axl version\. Supported axl versions are 11\.x, 12\.x and 14\.0</,
    );
    assert.match(wrongVersionPage(served, 'comma'), /are 11\.0,11\.5,12\.0,12\.5,14\.0</);
    assert.match(wrongVersionPage(served, 'lines'), /are:\n11\.0\n11\.5\n12\.0\n12\.5\n14\.0\n/);
    assert.equal(AXL_VERSION_WORDINGS.length, 5);
  });

  it('ships a 14.0 toolkit from the 14.0 node', async () => {
    const zip = await call(legacy.urls.toolkit as string, {
      ca: labTrustedPem(lab.info),
      auth: legacy.credentials.axl as { user: string; password: string },
    });
    assert.equal(zip.status, 200);
    const files = await zipEntries(zip.body);
    const wsdl = files.get('schema/14.0/AXLAPI.wsdl');
    assert.ok(wsdl, [...files.keys()].join(', '));
    assert.match(wsdl, /soapAction="CUCM:DB ver=14\.0 getPhone"/);
    assert.doesNotMatch(wsdl, /AXL\/API\/15\.0/);
  });
});
