// python zeep against the lab's CDRonDemandService with the WSDL the CUCM publisher serves (strict
// validation, HTTPS verified against the node's certificate): get_file_list as public clients call it.
// Optional: skips, saying why, where no python3 has zeep and requests (Debian's python3-zeep is installed
// on the project's machines).
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { cdrDateTime } from '../../lab/cucm/cdr/repository.ts';
import { startLab, type Lab } from '../../lab/index.ts';
import { tempStateDir } from '../helpers/state-dir.ts';

const SCRIPT = join(import.meta.dirname, 'python', 'cdr_on_demand.py');

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

interface Results {
  all: string[];
  failed: string[];
  fault: string;
}

const found = findPython();
if (!found.python) console.log(`# python CDRonDemandService test skipped: ${found.reason}`);

describe(
  'python zeep against the lab CDRonDemandService',
  { skip: found.python ? false : found.reason },
  () => {
    let lab: Lab;
    const state = tempStateDir('ucmcp-python-cdr-');
    let results: Results;
    /** An hour that is over: two hours ago. */
    const start = Math.floor(Date.now() / 3_600_000) * 60 - 120;
    before(async () => {
      lab = await startLab({ stateDir: state.dir, loginDelayMs: 50 });
      const infoPath = join(state.dir, 'lab-info.json');
      writeFileSync(infoPath, JSON.stringify(lab.info), { mode: 0o600 });
      const args = [
        SCRIPT,
        infoPath,
        state.dir,
        cdrDateTime(start),
        cdrDateTime(start + 60),
        cdrDateTime(start + 61),
      ];
      const run = await promisify(execFile)(found.python as string, args, {
        encoding: 'utf8',
        timeout: 120_000,
        maxBuffer: 4 * 1024 * 1024,
      }).catch((err: { stderr?: string; message: string }) => {
        throw new Error(`the python session failed: ${err.stderr?.slice(-3_000) ?? err.message}`);
      });
      results = JSON.parse(run.stdout) as Results;
    });
    after(async () => {
      await lab?.stop();
      state.cleanup();
    });

    it('lists an hour of files as the repository holds them, and only the failed ones with in2 false', () => {
      const files = lab.state.cucm.cdr.between(start, start + 60);
      assert.deepEqual(
        results.all,
        files.map((f) => f.name),
      );
      assert.ok(results.all.length > 40);
      assert.deepEqual(
        results.failed,
        files.filter((f) => !f.sent).map((f) => f.name),
      );
    });

    it('a span over one hour is a SOAP fault', () => {
      assert.match(results.fault, /cannot span over 1 hour/);
    });
  },
);
