// CUCM-OAUTH-01 on processconfig rows as executeSQLQuery returns them: Disabled is a finding, Enabled
// passes, and a missing row, an unknown value or a cut answer is never read as a pass.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EvidenceResult } from '../../../../plugins/_shared/audit/checklist.ts';
import { CUCM_CHECKLIST } from '../../../../plugins/cucm/audit/checklist.ts';
import { OAUTH_CHECKS, OAUTH_REFRESH_PARAMETER } from '../../../../plugins/cucm/audit/checks-oauth.ts';

const [check] = OAUTH_CHECKS;
const answer = (values: string[], complete = true): Record<string, EvidenceResult> => ({
  oauthRefreshLoginFlow: {
    ok: true,
    data: {
      operation: 'executeSQLQuery',
      rows: values.map((paramvalue) => ({ paramname: OAUTH_REFRESH_PARAMETER, paramvalue })),
      complete,
    },
  },
});

describe('CUCM-OAUTH-01 (OAuth with Refresh Login Flow)', () => {
  it('is in the CUCM checklist, reading the one enterprise parameter by its published id', () => {
    assert.ok(check);
    assert.ok(CUCM_CHECKLIST.checks.some((c) => c.id === check.id));
    assert.match(JSON.stringify(check.evidence[0]?.args), /where paramname = 'oAuthWithRefreshLoginFlow'/);
    assert.equal(check.unverified, undefined);
    assert.ok(check.references?.some((r) => r.confirms?.includes(OAUTH_REFRESH_PARAMETER)));
  });

  it('finds Disabled and passes Enabled, however the Boolean is spelled', () => {
    for (const v of ['F', 'false', '0', 'Disabled'])
      assert.equal(check?.evaluate(answer([v])), 'OAuth with Refresh Login Flow is Disabled', v);
    for (const v of ['T', 'true', '1', 'Enabled']) assert.equal(check?.evaluate(answer([v])), undefined, v);
  });

  it('never passes what it cannot read', () => {
    assert.match(
      check?.evaluate(answer([])) ?? '',
      /cannot judge .*no processconfig row named oAuthWithRefreshLoginFlow/,
    );
    assert.match(check?.evaluate(answer(['maybe'])) ?? '', /unrecognised value .*maybe/);
    assert.match(check?.evaluate(answer(['T'], false)) ?? '', /incomplete/);
  });
});
