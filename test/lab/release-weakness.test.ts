// The release weakness (`cucm-release-out-of-maintenance`): listed, it leaves the CUCM publisher on a
// 12.5 build that every view of the release reports alike (show version active, show status,
// getCCMVersion, the AXL schemas served); the weak profile alone never seeds it, since the demos and the
// AXL tests rely on a 15.0 publisher.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Lab } from '../../lab/index.ts';
import { DEMO_CREDENTIALS, labNode } from '../../lab/index.ts';
import { resolveWeaknesses } from '../../lab/weaknesses/index.ts';
import { axl, startTestLab } from './helpers.ts';
import { openCli } from './ssh-client.ts';

describe('the CUCM release weakness', () => {
  let lab: Lab;
  before(async () => {
    lab = await startTestLab({ weaknesses: ['cucm-release-out-of-maintenance'] });
  });
  after(() => lab.stop());

  it('is seeded only when listed, never by the weak profile', () => {
    assert.ok(!resolveWeaknesses('weak').has('cucm-release-out-of-maintenance'));
    assert.ok(
      resolveWeaknesses('weak', ['cucm-release-out-of-maintenance']).has('cucm-release-out-of-maintenance'),
    );
  });

  it('reports 12.5 in the CLI, in getCCMVersion and in the AXL schemas served', async () => {
    const node = labNode(lab.info, 'cucm');
    assert.equal(node.version, '12.5.1.17900-64');
    const cli = await openCli(
      node.ports.ssh as number,
      DEMO_CREDENTIALS.os.user,
      DEMO_CREDENTIALS.os.password,
      {
        rows: 24,
      },
    );
    try {
      await cli.run('set cli pagination off');
      assert.match(await cli.run('show version active'), /^Active Master Version: 12\.5\.1\.17900-64\r?$/m);
      assert.match(await cli.run('show status'), /^Product Ver\s+: 12\.5\.1\.17900-64\r?$/m);
    } finally {
      cli.close();
    }
    const version = await axl(lab, 'getCCMVersion', '', { version: '12.5' });
    assert.equal(version.status, 200);
    assert.match(version.text, /<version>12\.5\.1\.17900\(64\)<\/version>/);
    const newer = await axl(lab, 'getCCMVersion', '', { version: '15.0' });
    assert.equal(newer.status, 599, 'a 12.5 node does not serve AXL 15.0');
  });
});
