// A hostile node answers AXL, RisPort70 and the schema downloads with DOCTYPEs whose entities read a
// local file, reach a loopback listener, or expand without bound (billion laughs, quadratic blow-up).
// Through the real tools: every one is a coded error within a second or two, no canary is read, the
// trap listener is never reached, memory stays bounded, and the node works again once it behaves.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LabNodeInfo } from '../../../lab/index.ts';
import type { XmlAttack } from '../../../lab/hostile/index.ts';
import { startProductStack, type ProductStack } from '../../helpers/product-stack.ts';
import type { CanaryFile, LoopbackTrap } from './helpers.ts';
import { assertNoLeak, canaryFile, loopbackTrap, MiB, refusedUnder, rssBytes } from './helpers.ts';

const ATTACKS: XmlAttack[] = [
  'external-file',
  'external-url',
  'parameter-entity',
  'billion-laughs',
  'quadratic-blowup',
];

describe('hostile node: XML entities in SOAP answers and schemas', () => {
  let s: ProductStack;
  let cucm: LabNodeInfo;
  let imp: LabNodeInfo;
  let canary: CanaryFile;
  let trap: LoopbackTrap;
  const target = (a: XmlAttack): string => (a === 'external-file' ? canary.url : trap.url);

  before(async () => {
    canary = canaryFile();
    trap = await loopbackTrap();
    s = await startProductStack({ seedVaultFor: ['admin', 'operator', 'auditor'] });
    [cucm, imp] = [s.node('cucm'), s.node('imp')];
    await Promise.all([
      s.ok('admin', 'cucm_download_axl_toolkit', { host: cucm.name }),
      s.ok('admin', 'imp_download_axl_toolkit', { host: imp.name }),
      s.ok('admin', 'cucm_download_ris_toolkit', { host: cucm.name }),
    ]);
  });
  after(async () => {
    await s?.stop();
    await trap?.close();
    canary?.cleanup();
  });

  it('AXL answers and faults with a DOCTYPE are AXLError at once, nothing resolved or expanded', async () => {
    await s.ok('auditor', 'cucm_get_version', { host: cucm.name });
    const rssBefore = rssBytes();
    for (const attack of ATTACKS) {
      for (const xmlInFault of [false, true]) {
        const r = await refusedUnder(s, { xml: attack, xmlInFault, xmlTarget: target(attack) }, [cucm.name], {
          role: 'auditor',
          tool: 'cucm_get_version',
          args: { host: cucm.name },
        });
        const what = `${attack}${xmlInFault ? ' in a fault' : ''}`;
        assert.equal(r.error, 'AXLError', `${what}: ${r.message}`);
        assert.match(r.message, /DOCTYPE/, what);
        assert.ok(r.ms < 2_000, `${what} took ${Math.round(r.ms)} ms`);
        assertNoLeak(r.message, canary.secret, 'lollol', 'AAAAAAAA');
      }
    }
    const grown = rssBytes() - rssBefore;
    assert.ok(
      grown < 200 * MiB,
      `RSS grew by ${Math.round(grown / MiB)} MiB over ${ATTACKS.length * 2} attacks`,
    );
    assert.equal(trap.connections(), 0, 'no entity reached the loopback listener');
    assert.ok(s.lab.state.hostile.stats.attacksServed >= ATTACKS.length * 2);
    const again = await s.ok('auditor', 'cucm_get_version', { host: cucm.name });
    assert.match(String(again.version), /^15\.0/);
  });

  it('IM&P AXL is refused the same way', async () => {
    for (const attack of ['billion-laughs', 'external-file'] as const) {
      const r = await refusedUnder(s, { xml: attack, xmlTarget: target(attack) }, [imp.name], {
        tool: 'imp_get_version',
        args: { host: imp.name },
      });
      assert.equal(r.error, 'AXLError', r.message);
      assertNoLeak(r.message, canary.secret);
    }
    await s.ok('admin', 'imp_get_version', { host: imp.name });
  });

  it('RisPort70 answers and its WSDL with a DOCTYPE are RISError, nothing resolved', async () => {
    s.lab.state.cucm.ris.window.reset();
    for (const attack of ATTACKS) {
      const query = await refusedUnder(s, { xml: attack, xmlTarget: target(attack) }, [cucm.name], {
        tool: 'cucm_risport_query',
        args: { host: cucm.name, select_items: ['SEP0A1B2C3D4E01'] },
      });
      assert.equal(query.error, 'RISError', `${attack}: ${query.message}`);
      assert.match(query.message, /DOCTYPE/);
      assert.ok(query.ms < 2_000, `${attack} took ${Math.round(query.ms)} ms`);
      assertNoLeak(query.message, canary.secret);
      s.lab.state.cucm.ris.window.reset();
    }
    const wsdl = await refusedUnder(s, { xml: 'external-file', xmlTarget: canary.url }, [cucm.name], {
      tool: 'cucm_download_ris_toolkit',
      args: { host: cucm.name },
    });
    assert.equal(wsdl.error, 'RISError', wsdl.message);
    assertNoLeak(wsdl.message, canary.secret);
    assert.equal(trap.connections(), 0);
    const ok = await s.ok('auditor', 'cucm_risport_query', {
      host: cucm.name,
      select_items: ['SEP0A1B2C3D4E01'],
    });
    assert.ok((ok.devices as unknown[]).length > 0, 'the cached WSDL still serves');
  });

  it('a toolkit schema with a DOCTYPE or an import outside the toolkit is refused before it is cached', async () => {
    const cases = [
      { toolkit: 'schema-doctype', xml: 'external-file', xmlTarget: canary.url },
      { toolkit: 'schema-doctype', xml: 'billion-laughs' },
      { toolkit: 'schema-import', xmlTarget: trap.url },
      { toolkit: 'schema-import', xmlTarget: canary.path },
      { toolkit: 'schema-import', xmlTarget: '../../../../../../../../etc/hostname' },
    ] as const;
    for (const attack of cases) {
      const r = await refusedUnder(s, attack, [cucm.name], {
        tool: 'cucm_download_axl_toolkit',
        args: { host: cucm.name },
      });
      assert.equal(r.error, 'AXLError', `${JSON.stringify(attack)}: ${r.message}`);
      assert.match(r.message, /AXLSoap\.xsd/);
      assertNoLeak(r.message, canary.secret);
      // The good schema cached before is still the one in use: loading it reaches nothing.
      const v = await s.ok('admin', 'cucm_get_version', { host: cucm.name });
      assert.equal(v.axl_version, '15.0');
    }
    assert.equal(trap.connections(), 0, 'no schema import reached the loopback listener');
  });
});
