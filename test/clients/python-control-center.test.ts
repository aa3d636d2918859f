// python zeep against the lab's ControlCenterServices with the WSDL each node serves (strict validation,
// HTTPS verified against the node's certificate), the way Cisco's serviceability samples drive a real
// node. Optional: skips, saying why, where no python3 has zeep and requests.
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { startLab, type Lab } from '../../lab/index.ts';
import { tempStateDir } from '../helpers/state-dir.ts';

const SCRIPT = join(import.meta.dirname, 'python', 'control_center.py');

function findPython(): { python?: string; reason: string } {
  const tried: string[] = [];
  for (const candidate of ['/usr/bin/python3', 'python3']) {
    const r = spawnSync(candidate, ['-c', 'import zeep, requests'], { encoding: 'utf8' });
    if (r.status === 0) return { python: candidate, reason: '' };
    tried.push(
      `${candidate}: ${r.error ? r.error.message : (r.stderr.trim().split('\n').at(-1) ?? 'failed')}`,
    );
  }
  return { reason: `no python3 with zeep and requests (${tried.join('; ')})` };
}

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

const found = findPython();
if (!found.python) console.log(`# python ControlCenterServices test skipped: ${found.reason}`);

describe(
  'python zeep against the lab ControlCenterServices',
  { skip: found.python ? false : found.reason },
  () => {
    let lab: Lab;
    const state = tempStateDir('ucmcp-python-cc-');
    let results: Record<'cucm' | 'imp' | 'cuc', ProductResult>;
    before(async () => {
      lab = await startLab({ stateDir: state.dir, loginDelayMs: 50 });
      const infoPath = join(state.dir, 'lab-info.json');
      writeFileSync(infoPath, JSON.stringify(lab.info), { mode: 0o600 });
      const run = await promisify(execFile)(found.python as string, [SCRIPT, infoPath, state.dir], {
        encoding: 'utf8',
        timeout: 120_000,
        maxBuffer: 4 * 1024 * 1024,
      }).catch((err: { stderr?: string; message: string }) => {
        throw new Error(`the python session failed: ${err.stderr?.slice(-3_000) ?? err.message}`);
      });
      results = JSON.parse(run.stdout) as typeof results;
    });
    after(async () => {
      await lab?.stop();
      state.cleanup();
    });

    it('reads every service, the static list, and stops and starts a feature service on each product', () => {
      for (const product of ['cucm', 'imp', 'cuc'] as const) {
        const r = results[product];
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
  },
);
