// python zeep against the lab's PerfmonService with the WSDL each node serves (strict validation, HTTPS
// verified against the node's certificate), the way Cisco's serviceability samples drive a real node.
// Optional: skips, saying why, where no python3 has zeep and requests (Debian's python3-zeep is
// installed on the project's machines).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pythonAgainstLab, pythonWith } from '../helpers/python-lab.ts';
import { registeredPhones } from '../lab/helpers.ts';

interface Results {
  cucm: { objects: string[]; counters: Record<string, number> };
  imp: { objects: string[]; counters: Record<string, number> };
  cuc: { objects: string[]; counters: Record<string, number> };
  session: { handle: string; first: [number, number]; second: [number, number] };
}

const found = pythonWith('python PerfmonService');

describe('python zeep against the lab PerfmonService', { skip: found.skip }, () => {
  const run = pythonAgainstLab<Results>(found, { script: 'perfmon.py', prefix: 'ucmcp-python-perfmon-' });

  it('lists counters and collects an object on each product, as the node serves its WSDL', () => {
    const { lab, results } = run;
    assert.ok(results.cucm.objects.includes('Cisco CallManager'));
    assert.equal(results.cucm.counters.RegisteredHardwarePhones, registeredPhones(lab, lab.state.cucm.node));
    assert.ok(results.imp.objects.includes('Cisco XCP CM'));
    assert.equal(results.imp.counters.ConnectedSockets, 42);
    assert.ok(results.cuc.objects.includes('Memory') && !results.cuc.objects.includes('Cisco CallManager'));
    assert.equal(results.cuc.counters['% Mem Used'], 62);
  });

  it('a session gives a percentage counter its value at the second sample', () => {
    const { results } = run;
    assert.match(results.session.handle, /^\{[0-9A-F-]{36}\}$/);
    assert.deepEqual(results.session.first, [0, 1]);
    assert.deepEqual(results.session.second, [14, 0]);
  });
});
