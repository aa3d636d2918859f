// python zeep against the lab's LogCollectionPortTypeService with the WSDL each node serves (strict
// validation, HTTPS verified against the node's certificate, answers as Axis2 MTOM), the way Cisco's
// serviceability samples drive a real node. Optional: skips, saying why, where no python3 has zeep and
// requests (Debian's python3-zeep is installed on the project's machines).
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { startLab, type Lab } from '../../lab/index.ts';
import { tempStateDir } from '../helpers/state-dir.ts';

const SCRIPT = join(import.meta.dirname, 'python', 'log_collection.py');

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
  nodes: string[];
  serviceLogs: string[];
  systemLogs: string[];
  node: string;
  log: string;
  files: number;
  first: { name: string; path: string; size: string };
}

const found = findPython();
if (!found.python) console.log(`# python LogCollection test skipped: ${found.reason}`);

describe(
  'python zeep against the lab LogCollectionPortTypeService',
  { skip: found.python ? false : found.reason },
  () => {
    let lab: Lab;
    const state = tempStateDir('ucmcp-python-logs-');
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

    it('lists every node of the cluster with its service and system logs', () => {
      assert.deepEqual(results.cucm.nodes, lab.state.cucm.ris.nodes);
      assert.ok(results.cucm.serviceLogs.includes('Cisco CallManager'));
      assert.ok(results.cucm.systemLogs.includes('Event Viewer-System Log'));
      assert.ok(results.imp.serviceLogs.includes('Cisco XCP Router'));
      assert.ok(results.cuc.serviceLogs.includes('Connection Conversation Manager'));
      assert.ok(!results.cuc.serviceLogs.includes('Cisco CallManager'));
    });

    it("selects a service's files with the sample's criteria", () => {
      assert.equal(results.cucm.log, 'Cisco CallManager');
      assert.equal(results.cucm.node, lab.state.cucm.node);
      assert.ok(results.cucm.files >= 24, String(results.cucm.files));
      assert.match(
        results.cucm.first.path,
        /^\/var\/log\/active\/cm\/trace\/ccm\/sdl\/SDL001_100_\d{6}\.txt\.gz$/,
      );
      assert.match(results.cucm.first.size, /^\d+$/);
      assert.match(results.imp.first.name, /^rtr-jsm-\d+\.log$/);
      assert.match(results.cuc.first.name, /^diag_CuNotifier_\d{8}\.uc$/);
    });
  },
);
