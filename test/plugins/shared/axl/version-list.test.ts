// The HTTP 599 list in every wording: real pages (the lab's renderings of the forms public clients
// record, and hand-written variants: a major without minor, other sentences, spaces and newlines), and
// the whole negotiation against a lab 14.0 node for each wording, over real HTTPS.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Lab, LabNodeInfo } from '../../../../lab/index.ts';
import { labNode, labTlsPin, startLab } from '../../../../lab/index.ts';
import { AXL_VERSION_WORDINGS, axlSchemasFor, wrongVersionPage } from '../../../../lab/cucm/versions.ts';
import { negotiateVersion } from '../../../../plugins/_shared/axl/axl-client.ts';
import { probeAxlVersion } from '../../../../plugins/_shared/axl/probe.ts';
import { AxlSchemaCache } from '../../../../plugins/_shared/axl/schema-cache.ts';
import { downloadAxlToolkit } from '../../../../plugins/_shared/axl/toolkit.ts';
import type { NodeEndpoint } from '../../../../plugins/_shared/axl/transport.ts';
import {
  concreteVersions,
  parseSupportedVersions,
  versionsToTry,
} from '../../../../plugins/_shared/axl/version-list.ts';
import { FAST_RETRY } from './helpers.ts';

const labStateDir = resolve(import.meta.dirname, '..', '..', '..', '..', '.tmp', 'lab-state');
const V14 = axlSchemasFor('14.0.1.13900-155');

describe('AXL version list (HTTP 599)', () => {
  it('reads every wording a node sends', () => {
    const cases: [string, string[]][] = [
      [wrongVersionPage(V14, 'and'), ['11.0', '11.5', '12.0', '12.5', '14.0']],
      [wrongVersionPage(V14, 'tomcat-x'), ['11.x', '12.x', '14.0']],
      [wrongVersionPage(V14, 'majors'), ['11.x', '12.x', '14.x']],
      [wrongVersionPage(V14, 'comma'), ['11.0', '11.5', '12.0', '12.5', '14.0']],
      [wrongVersionPage(V14, 'lines'), ['11.0', '11.5', '12.0', '12.5', '14.0']],
      ['Incorrect AXL version. Supported axl versions are 15.x', ['15.x']],
      ['Incorrect axl version. Supported axl versions are 12, 14 and 15.', ['12', '14', '15']],
      ['<p>Supported AXL versions:\r\n  12.5 ,\n 14.0;15.0</p>', ['12.5', '14.0', '15.0']],
      [
        'AXL version 16.0 is not supported. Supported versions are 14.0 or 15.0. HTTP Status 599',
        ['14.0', '15.0'],
      ],
      ['This node supports AXL 12.5, 14.0 and 15.0 only', ['12.5', '14.0', '15.0']],
    ];
    for (const [page, want] of cases) assert.deepEqual(parseSupportedVersions(page), want, page);
    // Nothing read from a page without a list, nor numbers elsewhere on it (status, build, port).
    assert.deepEqual(parseSupportedVersions('<h1>HTTP Status 599</h1> build 15.0.1.11900-40 on 8443'), []);
  });

  it('picks the newest version it can speak that the node covers, never above the one wanted', () => {
    assert.deepEqual(versionsToTry(['11.x', '12.x', '14.x'], ['12.5', '14.0', '15.0'], '15.0'), [
      '14.0',
      '12.5',
    ]);
    assert.deepEqual(versionsToTry(['12', '14', '15'], ['14.0', '15.0'], '14.0'), ['14.0']);
    assert.deepEqual(versionsToTry(['12.0', '12.5'], ['14.0', '15.0'], '15.0'), []);
    assert.deepEqual(concreteVersions(['12.x', '14.0']), ['14.0', '12.5', '12.0']);
  });
});

describe('AXL version negotiation against a 14.0 node, in every wording', () => {
  for (const wording of AXL_VERSION_WORDINGS) {
    describe(wording, () => {
      let lab: Lab;
      let dir: string;
      let cache: AxlSchemaCache;
      const endpoint = (node: LabNodeInfo): NodeEndpoint => ({
        host: '127.0.0.1',
        port: node.ports.https as number,
        username: node.credentials.axl?.user ?? '',
        password: node.credentials.axl?.password ?? '',
        ...labTlsPin(lab.info, node),
      });
      before(async () => {
        dir = mkdtempSync(join(tmpdir(), 'axl-versions-'));
        lab = await startLab({
          stateDir: labStateDir,
          loginDelayMs: 50,
          legacyCluster: true,
          axlVersionWording: wording,
        });
        cache = new AxlSchemaCache(join(dir, 'schema'), 'cucm_download_axl_toolkit');
      });
      after(async () => {
        await lab.stop();
        rmSync(dir, { recursive: true, force: true });
      });

      it('finds 14.0 from the list, downloads its toolkit and negotiates down from 15.0', async () => {
        const pub = endpoint(labNode(lab.info, 'cucm'));
        const legacy = endpoint(labNode(lab.info, 'cucm', 'cucm14-pub'));
        assert.equal(await probeAxlVersion({ ...legacy, retry: FAST_RETRY }), '14.0');
        await downloadAxlToolkit({ ...pub, cache, nodeVersion: '15.0', retry: FAST_RETRY });
        await downloadAxlToolkit({ ...legacy, cache, nodeVersion: '14.0', retry: FAST_RETRY });
        assert.deepEqual(cache.versions(), ['14.0', '15.0']);
        const got = await negotiateVersion({ ...legacy, retry: FAST_RETRY }, cache);
        assert.equal(got.version, '14.0');
        assert.ok(got.supported.length > 0);
        assert.equal((await negotiateVersion({ ...pub, retry: FAST_RETRY }, cache)).version, '15.0');
      });
    });
  }
});
