// python zeep against the lab's ControlCenterServices with the WSDL each node serves (strict validation,
// HTTPS verified against the node's certificate), the way Cisco's serviceability samples drive a real
// node. Optional: skips, saying why, where no python3 has zeep and requests.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pythonAgainstLab, pythonWith } from '../helpers/python-lab.ts';

interface ProductResult {
  services: number;
  returnCode: string;
  started: number;
  deployable: boolean;
  tomcatDeployable: boolean;
  stopAnswer: [string, number];
  stoppedStatus: string;
  startAnswer: string;
  otherNode: string;
}

const found = pythonWith('python ControlCenterServices');

describe('python zeep against the lab ControlCenterServices', { skip: found.skip }, () => {
  const run = pythonAgainstLab<Record<'cucm' | 'imp' | 'cuc', ProductResult>>(found, {
    script: 'control_center.py',
    prefix: 'ucmcp-python-cc-',
  });

  it('reads every service, the static list, and stops and starts a feature service on each product', () => {
    for (const product of ['cucm', 'imp', 'cuc'] as const) {
      const r = run.results[product];
      assert.ok(r.services > 20, `${product}: ${r.services} services`);
      assert.equal(r.returnCode, '0', product);
      assert.ok(r.started > 0 && r.started < r.services, product);
      assert.equal(r.deployable, true, product);
      assert.equal(r.tomcatDeployable, false, product);
      assert.deepEqual(r.stopAnswer, ['Stopped', -1], product);
      assert.equal(r.stoppedStatus, 'Stopped', product);
      assert.equal(r.startAnswer, 'Started', product);
      assert.match(r.otherNode, /local node only/, product);
    }
  });
});
