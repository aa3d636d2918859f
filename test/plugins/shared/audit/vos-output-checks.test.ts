// The checks of the three audits that read the same VOS CLI command must judge one answer one way: a
// weakness, a pass, or "cannot judge" for an answer in neither form (never a finding, never a pass).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  isCannotJudge,
  type Check,
  type EvidenceResult,
} from '../../../../plugins/_shared/audit/checklist.ts';
import {
  FIPS_STATUS_UNVERIFIED,
  PASSWORD_AGE_UNVERIFIED,
  fipsState,
  fipsVerdict,
  passwordAgeDays,
} from '../../../../plugins/_shared/audit/vos-verdicts.ts';
import { CUC_CHECKLIST } from '../../../../plugins/cuc/audit/checklist.ts';
import { CUCM_CHECKLIST } from '../../../../plugins/cucm/audit/checklist.ts';
import { IMP_CHECKLIST } from '../../../../plugins/imp/audit/checklist.ts';

const ALL = [...CUCM_CHECKLIST.checks, ...IMP_CHECKLIST.checks, ...CUC_CHECKLIST.checks];
const check = (id: string): Check => {
  const c = ALL.find((x) => x.id === id);
  assert.ok(c, id);
  return c;
};

/** Every evidence call of the check answered with the same CLI output. */
function judge(id: string, output: string): 'finding' | 'pass' | 'cannot judge' {
  const c = check(id);
  const r: Record<string, EvidenceResult> = {};
  for (const e of c.evidence) r[e.id] = { ok: true, data: { output } };
  const observation = c.evaluate(r);
  if (observation === undefined) return 'pass';
  return isCannotJudge(observation) ? 'cannot judge' : 'finding';
}

const UNREADABLE = ['Executed command unsuccessfully', '', 'Invalid command'];

describe('VOS CLI answers judged alike by the three audits', () => {
  it('utils fips status: NON-FIPS is a finding, FIPS a pass, anything else not assessed', () => {
    for (const id of ['CUCM-FIPS-01', 'IMP-FIPS-01', 'CUC-FIPS-01']) {
      assert.equal(judge(id, 'The system is operating in NON-FIPS Mode'), 'finding', id);
      assert.equal(
        judge(id, 'The system is operating in FIPS mode. Self test status:\n - S T A R T ---'),
        'pass',
        id,
      );
      for (const out of UNREADABLE) assert.equal(judge(id, out), 'cannot judge', `${id}: ${out}`);
      assert.equal(check(id).unverified, FIPS_STATUS_UNVERIFIED, id);
    }
  });

  it('show password expiry: disabled is a finding, a day count is read in the singular too, anything else not assessed', () => {
    for (const id of ['CUCM-OS-01', 'IMP-OS-01', 'CUC-OS-01', 'CUC-OS-02']) {
      assert.equal(judge(id, 'Password expiry maximum age is disabled'), 'finding', id);
      assert.equal(judge(id, 'Password expiry minimum age is set to 1 day'), 'pass', id);
      assert.equal(judge(id, 'Password expiry maximum age is set to 60 days'), 'pass', id);
      for (const out of UNREADABLE) assert.equal(judge(id, out), 'cannot judge', `${id}: ${out}`);
      assert.equal(check(id).unverified, PASSWORD_AGE_UNVERIFIED, id);
    }
    assert.equal(judge('CUCM-OS-01', 'Password expiry maximum age is set to 3650 days'), 'finding');
  });

  it('the shared parsers', () => {
    assert.equal(fipsState('The system is operating in NON-FIPS Mode'), 'off');
    assert.equal(fipsState('The system is operating in FIPS mode.'), 'on');
    assert.equal(fipsState('FIPS'), undefined);
    assert.equal(fipsVerdict('operating in FIPS mode'), undefined);
    assert.match(fipsVerdict('') ?? '', /^cannot judge/);
    assert.equal(passwordAgeDays('age is set to 1 day'), 1);
    assert.equal(passwordAgeDays('age is set to 90 days'), 90);
    assert.equal(passwordAgeDays('maximum age is disabled'), 0);
    assert.equal(passwordAgeDays('Executed command unsuccessfully'), undefined);
  });

  it('CUCM-FIPS-02 does not call a node whose FIPS answer is unreadable a FIPS node', () => {
    const c = check('CUCM-FIPS-02');
    const observation = c.evaluate({
      fips: { ok: true, data: { output: 'Executed command unsuccessfully' } },
      esm: { ok: true, data: { output: 'The system is operating in non-EnhancedSecurityMode' } },
    });
    assert.equal(observation, 'Enhanced Security Mode is disabled (FIPS state unknown)');
  });
});
