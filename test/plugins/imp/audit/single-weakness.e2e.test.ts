// Each IM&P weakness whose check or seeding this round changed, seeded ALONE over the weak profile's
// other data: the audit, run through the auditor's real MCP client, finds exactly that weakness's check
// and nothing else, so no check fires on another check's data or on profile-only data.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { weaknessesOf } from '../../../../lab/weaknesses/index.ts';
import { IMP_CHECKLIST } from '../../../../plugins/imp/audit/checklist.ts';
import { assertReportCites, auditStack, runAudit } from '../../../helpers/audit-run.ts';

/**
 * The new weaknesses, and those whose check now reads other evidence (federation through the service
 * list, credential policies through AXL).
 */
const ALONE = [
  'imp-ntp-unsynchronised',
  'imp-xmpp-router-tls-off',
  'imp-federation-no-cert-validation',
  'imp-federation-without-tls',
  'imp-federation-allow-all',
  'imp-credpolicy-no-lockout',
  'imp-credpolicy-weak-passwords',
  'imp-credpolicy-no-expiry',
];

describe('imp_security_audit, one weakness at a time', () => {
  for (const id of ALONE) {
    it(`${id} alone: exactly its check fires`, async () => {
      const weakness = weaknessesOf('imp').find((w) => w.id === id);
      assert.ok(weakness, `${id} is a lab weakness`);
      const s = await auditStack('imp', { weaknesses: [id] });
      try {
        const a = await runAudit(s, IMP_CHECKLIST, `imp-${id}.md`);
        assert.deepEqual(
          a.run.findings.map((f) => f.check),
          [weakness.check],
          JSON.stringify(a.run.findings),
        );
        assert.deepEqual(a.run.unjudged, []);
        assertReportCites(IMP_CHECKLIST, a);
      } finally {
        await s.stop();
      }
    });
  }
});
