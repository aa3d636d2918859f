// A hostile node answers the serviceability SOAP services (PerfMon here) with DOCTYPEs whose entities
// read a local file, reach a loopback listener or expand without bound, or with an endless answer.
// Through the real tools: a coded SERVICEABILITY_ERROR within a second or two, no canary read, the trap
// never reached, and the node works again once it behaves.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LabNodeInfo } from '../../../lab/index.ts';
import type { XmlAttack } from '../../../lab/hostile/index.ts';
import { startProductStack, type ProductStack } from '../../helpers/product-stack.ts';
import type { CanaryFile, LoopbackTrap } from './helpers.ts';
import { assertNoLeak, canaryFile, loopbackTrap, refusedUnder } from './helpers.ts';

const ATTACKS: XmlAttack[] = ['external-file', 'external-url', 'billion-laughs', 'quadratic-blowup'];

describe('hostile node: the serviceability SOAP services', () => {
  let s: ProductStack;
  let cucm: LabNodeInfo;
  let canary: CanaryFile;
  let trap: LoopbackTrap;
  before(async () => {
    canary = canaryFile();
    trap = await loopbackTrap();
    s = await startProductStack({ seedVaultFor: ['admin', 'operator', 'auditor'] });
    cucm = s.node('cucm');
  });
  after(async () => {
    await s?.stop();
    await trap?.close();
    canary?.cleanup();
  });

  it('PerfMon answers and faults with a DOCTYPE are SERVICEABILITY_ERROR at once, nothing resolved', async () => {
    for (const attack of ATTACKS)
      for (const xmlInFault of [false, true]) {
        const r = await refusedUnder(
          s,
          { xml: attack, xmlInFault, xmlTarget: attack === 'external-file' ? canary.url : trap.url },
          [cucm.name],
          { tool: 'cucm_perfmon_query', args: { host: cucm.name, object: 'Memory' } },
        );
        assert.equal(r.error, 'SERVICEABILITY_ERROR', `${attack}: ${r.message}`);
        assert.match(r.message, /DOCTYPE/);
        assert.ok(r.ms < 2_000, `${attack} took ${Math.round(r.ms)} ms`);
        assertNoLeak(r.message, canary.secret);
      }
    assert.equal(trap.connections(), 0);
    const ok = await s.ok('auditor', 'cucm_perfmon_query', { host: cucm.name, object: 'Memory' });
    assert.equal((ok.nodes as { values: unknown[] }[])[0]?.values.length, 5);
  });

  it('an endless PerfMon answer is cut at the size cap and refused', async () => {
    const r = await refusedUnder(s, { hugeAnswer: { pathPrefix: '/perfmonservice2/' } }, [cucm.name], {
      tool: 'cucm_perfmon_list_counters',
      args: { host: cucm.name },
    });
    assert.equal(r.error, 'SERVICEABILITY_ERROR', r.message);
    assert.match(r.message, /sent more than 8388608 bytes for perfmonListCounter; refused/);
  });
});
