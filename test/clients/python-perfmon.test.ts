// python zeep against the lab's PerfmonService with the WSDL each node serves (strict validation, HTTPS
// verified against the node's certificate), the way Cisco's serviceability samples drive a real node.
// Optional: skips, saying why, where no python3 has zeep and requests (Debian's python3-zeep is
// installed on the project's machines).
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { startLab, type Lab } from '../../lab/index.ts';
import { tempStateDir } from '../helpers/state-dir.ts';

const SCRIPT = join(import.meta.dirname, 'python', 'perfmon.py');

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
  cucm: { objects: string[]; counters: Record<string, number> };
  imp: { objects: string[]; counters: Record<string, number> };
  cuc: { objects: string[]; counters: Record<string, number> };
  session: { handle: string; first: [number, number]; second: [number, number] };
}

const found = findPython();
if (!found.python) console.log(`# python PerfmonService test skipped: ${found.reason}`);

describe('python zeep against the lab PerfmonService', { skip: found.python ? false : found.reason }, () => {
  let lab: Lab;
  const state = tempStateDir('ucmcp-python-perfmon-');
  let results: Results;
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
    results = JSON.parse(run.stdout) as Results;
  });
  after(async () => {
    await lab?.stop();
    state.cleanup();
  });

  it('lists counters and collects an object on each product, as the node serves its WSDL', () => {
    const phones = [...lab.state.cucm.ris.registrations].filter(
      ([n, regs]) =>
        n.startsWith('SEP') && regs.some((r) => r.node === lab.state.cucm.node && r.status === 'Registered'),
    ).length;
    assert.ok(results.cucm.objects.includes('Cisco CallManager'));
    assert.equal(results.cucm.counters.RegisteredHardwarePhones, phones);
    assert.ok(results.imp.objects.includes('Cisco XCP CM'));
    assert.equal(results.imp.counters.ConnectedSockets, 42);
    assert.ok(results.cuc.objects.includes('Memory') && !results.cuc.objects.includes('Cisco CallManager'));
    assert.equal(results.cuc.counters['% Mem Used'], 62);
  });

  it('a session gives a percentage counter its value at the second sample', () => {
    assert.match(results.session.handle, /^\{[0-9A-F-]{36}\}$/);
    assert.deepEqual(results.session.first, [0, 1]);
    assert.deepEqual(results.session.second, [14, 0]);
  });
});
