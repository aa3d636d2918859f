// The rules every check and every lab weakness follow, checked over the lists as they are (other
// checks added later are covered unchanged): each check cites a public source for its control and
// names, each weakness names an existing check of its own product, and each check has a weakness
// that makes it fire (its finding path is tested by the combination tests). Each assertion lists
// every offender at once, so one run says all that is missing.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { allWeaknesses, weaknessesOf, type WeaknessProduct } from '../../../../lab/weaknesses/index.ts';
import type { Checklist } from '../../../../plugins/_shared/audit/checklist.ts';
import { cliToolCommands } from '../../../../plugins/_shared/audit/cli-tool-evidence.ts';
import { CUC_CHECKLIST } from '../../../../plugins/cuc/audit/checklist.ts';
import { CUCM_CHECKLIST } from '../../../../plugins/cucm/audit/checklist.ts';
import { IMP_CHECKLIST } from '../../../../plugins/imp/audit/checklist.ts';

const CHECKLISTS: readonly Checklist[] = [CUCM_CHECKLIST, IMP_CHECKLIST, CUC_CHECKLIST];

describe('security-audit checks and lab weaknesses', () => {
  it('every check cites at least one public source: document, release, section and an https URL', () => {
    const lacking = CHECKLISTS.flatMap((l) =>
      l.checks
        .filter(
          (c) =>
            !(c.references ?? []).some(
              (r) =>
                r.document.trim() !== '' &&
                r.release.trim() !== '' &&
                r.section.trim() !== '' &&
                URL.canParse(r.url) &&
                new URL(r.url).protocol === 'https:',
            ),
        )
        .map((c) => c.id),
    );
    assert.deepEqual(lacking, [], `checks without a complete reference: ${lacking.join(', ')}`);
  });

  it('every reference is complete where given, and an unverified note says why', () => {
    const bad = CHECKLISTS.flatMap((l) =>
      l.checks.flatMap((c) => [
        ...(c.references ?? [])
          .filter(
            (r) =>
              !r.document.trim() || !r.release.trim() || !r.section.trim() || !/^https:\/\/\S+$/.test(r.url),
          )
          .map((r) => `${c.id}: ${JSON.stringify(r)}`),
        ...(c.unverified !== undefined && c.unverified.trim().length < 10
          ? [`${c.id}: unverified without a reason`]
          : []),
      ]),
    );
    assert.deepEqual(bad, []);
  });

  it('every weakness id is unique and names an existing check of its own product', () => {
    const ids = allWeaknesses().map((w) => w.id);
    assert.deepEqual(
      ids.filter((id, i) => ids.indexOf(id) !== i),
      [],
      'duplicate weakness ids',
    );
    const bad = CHECKLISTS.flatMap((l) => {
      const checks = new Set(l.checks.map((c) => c.id));
      return weaknessesOf(l.product as WeaknessProduct)
        .filter((w) => w.product !== l.product || !checks.has(w.check))
        .map((w) => `${w.id} -> ${w.check}`);
    });
    assert.deepEqual(bad, [], `weaknesses naming no check of their product: ${bad.join(', ')}`);
  });

  it('every check has at least one weakness that makes it fire', () => {
    const without = CHECKLISTS.flatMap((l) => {
      const fired = new Set(weaknessesOf(l.product as WeaknessProduct).map((w) => w.check));
      return l.checks.filter((c) => !fired.has(c.id)).map((c) => c.id);
    });
    assert.deepEqual(without, [], `checks no lab weakness makes fire: ${without.join(', ')}`);
  });

  it('every command a CLI-parsed tool runs for a check is confirmed by one of the check’s references', () => {
    // `show cert own <unit>/<file>.pem` is confirmed by any source showing `show cert own <something>`.
    const fixed = (command: string): string => command.split('<')[0]?.trim() ?? command;
    const uncited = CHECKLISTS.flatMap((l) =>
      l.checks.flatMap((c) => {
        const confirmed = (c.references ?? []).flatMap((r) => r.confirms ?? []);
        return c.evidence
          .flatMap((e) => cliToolCommands(e))
          .filter((command) => {
            const base = fixed(command);
            return !confirmed.some((x) => x === base || x.startsWith(`${base} `));
          })
          .map((command) => `${c.id}: ${command}`);
      }),
    );
    assert.deepEqual(uncited, [], `commands run without a source: ${uncited.join('; ')}`);
  });
});
