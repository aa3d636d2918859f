// The AXL version downgrade end to end: the server holds the 15.0 schema (from the 15.0 publisher) and
// the 14.0 one (from the 14.0 cluster's publisher, whose HTTP 599 names only majors: "11.x, 12.x and
// 14.x"). cucm_axl_call to the 14.0 node tries 15.0, reads the node's list, retries with 14.0 and says so.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  labCredential,
  prepareCucm,
  startProductStack,
  type ProductStack,
} from '../../helpers/product-stack.ts';
import type { LabNodeInfo } from '../../../lab/index.ts';

describe('AXL version downgrade through cucm_axl_call', () => {
  let s: ProductStack;
  let legacy: LabNodeInfo;
  before(async () => {
    s = await startProductStack({ lab: { legacyCluster: true, axlVersionWording: 'majors' } });
    await prepareCucm(s);
    legacy = s.node('cucm', 'cucm14-pub');
    await s.ok('admin', 'cucm_store_credentials', labCredential(s.lab, legacy, 'axl'));
  });
  after(async () => {
    await s.stop();
  });

  it('learns the 14.0 node version from its list and caches its toolkit beside 15.0', async () => {
    const r = await s.ok('admin', 'cucm_download_axl_toolkit', { host: legacy.name });
    assert.equal(r.node_axl_version, '14.0');
    assert.deepEqual([...(r.all_cached_versions as string[])].sort(), ['14.0', '15.0']);
  });

  it('negotiates down from 15.0 to 14.0 and answers with the version used', async () => {
    const mark = s.lab.state.log.requests.length;
    const r = await s.ok('auditor', 'cucm_axl_call', {
      host: legacy.name,
      operation: 'listPhone',
      args: { searchCriteria: { name: 'SEP%' }, returnedTags: { name: '' } },
    });
    assert.equal(r.axl_version, '14.0');
    assert.equal(r.complete, true);
    assert.equal(r.count, 4);
    const sent = s.lab.state.log.requests.slice(mark).filter((q) => q.node === legacy.name);
    assert.ok(
      sent.some((q) => q.status === 599),
      `the node refused 15.0 first: ${JSON.stringify(sent.map((q) => [q.operation, q.status]))}`,
    );
    assert.equal(sent.at(-1)?.status, 200);
    const version = await s.ok('auditor', 'cucm_get_version', { host: legacy.name });
    assert.equal(version.version, '14.0.1.13900(155)');
    assert.equal(version.axl_version, '14.0');
    // The 15.0 publisher keeps 15.0.
    const pub = await s.ok('auditor', 'cucm_get_version', { host: s.node('cucm').name });
    assert.equal(pub.axl_version, '15.0');
  });
});
