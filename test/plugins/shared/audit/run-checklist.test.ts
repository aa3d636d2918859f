// The runner's three verdicts: a finding, a pass, and "not assessed" both when evidence fails and when it
// arrives but cannot be read (cannotJudge), which must never be counted as a finding or a pass.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  cannotJudge,
  outputOf,
  type Check,
  type Checklist,
  type EvidenceResult,
} from '../../../../plugins/_shared/audit/checklist.ts';
import { runChecklist } from '../../../../plugins/_shared/audit/run-checklist.ts';

function check(id: string, evaluate: Check['evaluate']): Check {
  return {
    id,
    topic: 't',
    title: id,
    rationale: 'r',
    evidence: [
      { id: 'out', tool: 'cucm_os_run_command', args: { host: '{host}', command: 'x' }, purpose: 'p' },
    ],
    condition: 'c',
    evaluate,
    severity: 'low',
    remediation: 'm',
    references: [],
  };
}

const checklist: Checklist = {
  product: 'cucm',
  prompt: 'p',
  title: 't',
  guide: 'g',
  topics: [{ id: 't', title: 'T', summary: 's' }],
  checks: [
    check('FINDING', (r) => (outputOf(r.out) === 'weak' ? 'it is weak' : undefined)),
    check('PASS', () => undefined),
    check('UNREADABLE', (r) => cannotJudge(`unrecognised answer: ${outputOf(r.out)}`)),
  ],
};

describe('runChecklist verdicts', () => {
  it('reports an unreadable answer as not assessed, with its reason, never as a finding', async () => {
    const run = await runChecklist(checklist, 'h', async (): Promise<EvidenceResult> => ({
      ok: true,
      data: { output: 'weak' },
    }));
    assert.deepEqual(
      run.findings.map((f) => f.check),
      ['FINDING'],
    );
    assert.deepEqual(run.unjudged, [
      { check: 'UNREADABLE', reason: 'cannot judge: unrecognised answer: weak' },
    ]);
    assert.equal(run.calls, 1, 'the same evidence call is made once for the three checks');
  });

  it('reports failed evidence as not assessed for every check that needs it', async () => {
    const run = await runChecklist(checklist, 'h', async () => ({
      ok: false,
      error: 'UPSTREAM_UNAVAILABLE',
      message: 'down',
    }));
    assert.deepEqual(run.findings, []);
    assert.deepEqual(
      run.unjudged.map((u) => u.check),
      ['FINDING', 'PASS', 'UNREADABLE'],
    );
  });

  it('does not double a prefix already there', () => {
    assert.equal(cannotJudge('cannot judge the mode: no row'), 'cannot judge the mode: no row');
    assert.equal(cannotJudge('no row'), 'cannot judge: no row');
  });
});
