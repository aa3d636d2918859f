// LAB_SCALE: the generated data is the seed's alone (same seed, same digest; another seed, another
// digest), every count is the spec's exactly, and a started lab at site scale reports registrations on
// its subscribers and carries the 14.0 cluster. Timing is the benchmark's (bench/lab-enterprise.ts).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { labNode } from '../../lab/index.ts';
import type { Lab } from '../../lab/index.ts';
import { resolveOptions } from '../../lab/options.ts';
import { PATTERN_TRANSLATION } from '../../lab/scale/cucm.ts';
import type { LabData } from '../../lab/scale/generate.ts';
import { digestLabData, generateLabData } from '../../lab/scale/generate.ts';
import { SCALES } from '../../lab/scale/spec.ts';
import { startTestLab } from './helpers.ts';

const NOW = 1_760_000_000;

function counts(d: LabData): Record<string, number> {
  const cucm = d.cucm;
  const numplan = (usages: string[]): number =>
    cucm.table('numplan').rows.filter((r) => usages.includes(r.tkpatternusage ?? '')).length;
  const impNodes = d.imp.table('processnode').rows.filter((r) => r.tkprocessnoderole === '2');
  return {
    phones: cucm.table('device').rows.filter((r) => r.tkclass === '1').length,
    endUsers: cucm.table('enduser').size,
    lines: numplan(['2']),
    subscribers: cucm
      .table('processnode')
      .rows.filter((r) => r.tknodeusage === '1' && r.tkprocessnoderole !== '2').length,
    patterns: numplan(['5', PATTERN_TRANSLATION]),
    cucUsers: d.cuc.collection('users').items.size,
    impUsersPerNode: Math.min(
      ...impNodes.map((n) => d.imp.table('presenceuserassignment').lookup('fkprocessnode', n.pkid).length),
    ),
    impUsersMax: Math.max(
      ...impNodes.map((n) => d.imp.table('presenceuserassignment').lookup('fkprocessnode', n.pkid).length),
    ),
  };
}

describe('lab scale', () => {
  it('generates the enterprise data from the seed alone, with every count the spec says', () => {
    const a = generateLabData({ scale: 'enterprise', seed: 'test-seed', now: NOW });
    const digest = digestLabData(a);
    const spec = SCALES.enterprise;
    assert.ok(spec);
    const c = counts(a);
    assert.deepEqual(c, {
      phones: 25_000,
      endUsers: 20_000,
      lines: 30_000,
      subscribers: 3,
      patterns: 500,
      cucUsers: 12_000,
      impUsersPerNode: 150,
      impUsersMax: 150,
    });
    assert.deepEqual(a.risNodes, ['cucm-pub', 'cucm-sub1', 'cucm-sub2', 'cucm-sub3']);
    // Realistic shapes: SEP + 12 hex names, mixed models, shared lines, some phones unknown to RIS.
    const phones = a.cucm.table('device').rows.filter((r) => r.tkclass === '1');
    assert.ok(phones.every((p) => /^SEP[0-9A-F]{12}$/.test(p.name ?? '')));
    assert.ok(new Set(phones.map((p) => p.tkmodel)).size >= 5, 'several models');
    const maps = a.cucm.table('devicenumplanmap').rows;
    const perDn = new Map<string, number>();
    for (const m of maps) perDn.set(m.fknumplan ?? '', (perDn.get(m.fknumplan ?? '') ?? 0) + 1);
    assert.ok(
      [...perDn.values()].some((n) => n > 1),
      'some lines are shared',
    );
    const unknown = a.scalePhones.filter((n) => !a.registrations.has(n)).length;
    const registered = a.scalePhones.filter((n) =>
      a.registrations.get(n)?.some((r) => r.status === 'Registered'),
    );
    assert.ok(unknown > 0 && registered.length > a.scalePhones.length * 0.9);
    const nodes = new Set(registered.flatMap((n) => a.registrations.get(n)?.map((r) => r.node) ?? []));
    assert.deepEqual([...nodes].sort(), ['cucm-sub1', 'cucm-sub2', 'cucm-sub3']);
    const pools = new Set(phones.map((p) => p.fkdevicepool));
    assert.ok(pools.size >= 25, 'a device pool per site');

    const again = generateLabData({ scale: 'enterprise', seed: 'test-seed', now: NOW });
    assert.equal(digestLabData(again), digest, 'same seed, same data');
  });

  it('changes with the seed, and small is the demo as it was', () => {
    const site = generateLabData({ scale: 'site', seed: 'one', now: NOW });
    assert.deepEqual(counts(site), {
      phones: 2_000,
      endUsers: 2_000,
      lines: 2_400,
      subscribers: 1,
      patterns: 60,
      cucUsers: 1_500,
      impUsersPerNode: 100,
      impUsersMax: 100,
    });
    assert.notEqual(
      digestLabData(generateLabData({ scale: 'site', seed: 'two', now: NOW })),
      digestLabData(site),
    );
    const small = generateLabData({ scale: 'small', seed: 'one', now: NOW });
    const c = counts(small);
    assert.equal(c.phones, 4);
    assert.equal(c.endUsers, 3);
    assert.equal(c.cucUsers, 6);
  });

  it('reads LAB_SCALE and LAB_SEED, and refuses an unknown scale', () => {
    const o = resolveOptions({}, { LAB_SCALE: 'site', LAB_SEED: 'abc' });
    assert.equal(o.scale, 'site');
    assert.equal(o.seed, 'abc');
    assert.equal(o.legacyCluster, true);
    assert.equal(resolveOptions({}, {}).scale, 'small');
    assert.equal(resolveOptions({}, {}).legacyCluster, false);
    assert.throws(() => resolveOptions({}, { LAB_SCALE: 'huge' }), /small, site, enterprise/);
  });

  describe('a started site-scale lab', () => {
    let lab: Lab;
    before(async () => {
      lab = await startTestLab({ scale: 'site', extraPhones: 10 });
    });
    after(() => lab.stop());

    it('holds the site data, the bulk phones and a 14.0 cluster beside the 15.0 one', () => {
      const db = lab.state.cucm.db;
      assert.equal(lab.info.scale, 'site');
      // extraPhones still adds its bulk phones; they count toward the scale's total.
      assert.equal(db.table('device').rows.filter((r) => r.tkclass === '1').length, 2_000);
      assert.ok(db.table('device').findBy('name', 'SEPF00000000001'));
      assert.equal(labNode(lab.info, 'cucm').version, '15.0.1.11900-40');
      const legacy = labNode(lab.info, 'cucm', 'cucm14-pub');
      assert.equal(legacy.version, '14.0.1.13900-155');
      assert.ok(legacy.urls.axl);
      assert.ok(lab.state.cucm14);
    });
  });
});
