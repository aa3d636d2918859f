// The CUCM audit's changed original checks against real labs, one weakness at a time: each seeded alone
// (over the weak profile's other data) gives exactly its own check's finding, including the finding
// paths no profile exercised before (NTP, the release), and with none seeded the tokenless-CTL lab
// (CTL Provider not activated) passes. One kernel serves every lab (test/helpers/audit-combinations.ts); the checklist
// runs through a real MCP client against real lab nodes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CUCM_WEAKNESSES } from '../../../../lab/weaknesses/cucm.ts';
import { CUCM_CHECKLIST } from '../../../../plugins/cucm/audit/checklist.ts';
import { startCombinationStack, type CombinationStack } from '../../../helpers/audit-combinations.ts';

/**
 * The original checks whose evidence or condition this round changed (the generic sweep of every
 * weakness alone is test/plugins/shared/audit/combinations-cucm.e2e.test.ts): new finding paths (NTP,
 * release), the tokenless CTL case, the DRS history, AXL instead of unconfirmed SQL columns, and the
 * parameter rows read without node columns.
 */
const CHANGED = new Set([
  ...['CUCM-OS-02', 'CUCM-OS-03', 'CUCM-SVC-01', 'CUCM-BKP-01', 'CUCM-TLS-02', 'CUCM-CSM-01'],
  ...['CUCM-PHONE-01', 'CUCM-PHONE-02', 'CUCM-TOLL-01', 'CUCM-TOLL-02', 'CUCM-TOLL-03'],
  ...['CUCM-LOG-01', 'CUCM-LOG-02'],
]);
const IDS = CUCM_WEAKNESSES.filter((w) => CHANGED.has(w.check));

describe('the CUCM audit’s changed checks, one weakness at a time', () => {
  let s: CombinationStack;
  before(async () => {
    s = await startCombinationStack(CUCM_CHECKLIST);
  });
  after(() => s.stop());

  it('has a weakness for every one of these checks, each naming a check of the checklist', () => {
    assert.deepEqual([...new Set(IDS.map((w) => w.check))].sort(), [...CHANGED].sort());
    const known = new Set(CUCM_CHECKLIST.checks.map((c) => c.id));
    for (const c of CHANGED) assert.ok(known.has(c), c);
  });

  it('passes every check when none is seeded: tokenless mixed mode with the CTL Provider not activated', async () => {
    const r = await s.audit([]);
    assert.deepEqual(r.unjudged, []);
    assert.deepEqual(r.found, []);
  });

  // Each of these weaknesses alone giving exactly its check is proven, with every other weakness, by
  // test/plugins/shared/audit/combinations-cucm.e2e.test.ts; here only what that sweep does not assert.

  it('words each observation from the evidence: NTP, release, CAPF, backups', async () => {
    const r = await s.audit([
      'cucm-ntp-unsynchronised',
      'cucm-release-out-of-maintenance',
      'cucm-security-services-off',
      'cucm-no-backup',
    ]);
    const detail = (id: string): string => r.run.findings.find((f) => f.check === id)?.detail ?? '';
    assert.match(detail('CUCM-OS-02'), /^NTP is not synchronised: .*unsynchronised/);
    assert.equal(detail('CUCM-OS-03'), 'active release 12.5.1.17900-64');
    assert.match(
      detail('CUCM-SVC-01'),
      /^Cisco Certificate Authority Proxy Function: STOPPED \(Service Not Activated\)$/,
    );
    assert.doesNotMatch(detail('CUCM-SVC-01'), /CTL Provider/);
    assert.equal(detail('CUCM-BKP-01'), 'no backup has ever run (the DRS backup history is empty)');
  });
});
