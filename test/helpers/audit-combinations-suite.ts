// The combination tests of one product's security audit (one test file per product, so the runner
// spreads them over the cores): random sets of weaknesses, each weakness alone, and none. Every audit
// runs through real MCP tools against a lab seeded with exactly that set, over the weak profile's
// other data, so data that is not a weakness is present and must never make a check fire.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { weaknessesOf, type WeaknessProduct } from '../../lab/weaknesses/index.ts';
import type { Checklist } from '../../plugins/_shared/audit/checklist.ts';
import {
  COMBINATION_SEED,
  randomCombinations,
  startCombinationStack,
  type CombinationRun,
  type CombinationStack,
} from './audit-combinations.ts';

/** How a run differs from what its seeding must give: empty when the findings are exactly the seeded checks. */
export function mismatch(r: CombinationRun): string {
  const missed = r.seeded.filter((c) => !r.found.includes(c));
  const extra = r.found.filter((c) => !r.seeded.includes(c));
  const parts = [
    ...(missed.length ? [`missed ${missed.join(', ')}`] : []),
    ...(extra.length ? [`false positives ${extra.join(', ')}`] : []),
    ...r.unjudged.map((u) => `unjudged ${u.check} (${u.reason.slice(0, 200)})`),
  ];
  return parts.join('; ');
}

export function describeCombinations(checklist: Checklist, randomCount = 3): void {
  const product = checklist.product as WeaknessProduct;
  // Read when the file loads: weaknesses the product helpers add are covered without touching this.
  const weaknesses = weaknessesOf(product);
  describe(`${checklist.prompt}: every combination of the lab's weaknesses`, () => {
    let stack: CombinationStack;
    before(async () => {
      stack = await startCombinationStack(checklist);
    });
    after(async () => {
      await stack?.stop();
    });

    it('with no weakness seeded (the weak profile’s other data present), no check fires', async () => {
      const r = await stack.audit([]);
      assert.equal(mismatch(r), '');
    });

    const combos = randomCombinations(product, randomCount, COMBINATION_SEED);
    for (const [i, combo] of combos.entries())
      it(`random set ${i + 1} of ${combos.length} (seed ${COMBINATION_SEED}): findings are exactly its checks`, async () => {
        const r = await stack.audit(combo);
        assert.equal(mismatch(r), '', `seeded ${combo.join(', ')}`);
      });

    for (const w of weaknesses)
      it(`${w.id} alone fires ${w.check} and nothing else`, async () => {
        const r = await stack.audit([w.id]);
        assert.equal(mismatch(r), '');
        assert.deepEqual(r.found, [w.check]);
      });
  });
}
