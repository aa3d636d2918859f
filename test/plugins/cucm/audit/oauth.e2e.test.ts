// CUCM-OAUTH-01 against real labs through a real MCP client: the lab seeded with only
// cucm-oauth-refresh-off gives exactly that finding in the whole checklist, the hardened lab passes it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runChecklist } from '../../../../plugins/_shared/audit/run-checklist.ts';
import { CUCM_CHECKLIST } from '../../../../plugins/cucm/audit/checklist.ts';
import { OAUTH_CHECKS } from '../../../../plugins/cucm/audit/checks-oauth.ts';
import { auditStack, mcpCaller, type AuditSeeding } from '../../../helpers/audit-run.ts';

async function audit(seeding: AuditSeeding, checks = CUCM_CHECKLIST.checks) {
  const s = await auditStack('cucm', seeding);
  try {
    return await runChecklist({ ...CUCM_CHECKLIST, checks }, s.node('cucm').name, mcpCaller(s.mcp.auditor));
  } finally {
    await s.stop();
  }
}

describe('CUCM-OAUTH-01 on the lab', () => {
  it('fires alone when only cucm-oauth-refresh-off is seeded', async () => {
    const run = await audit({ weaknesses: ['cucm-oauth-refresh-off'] });
    assert.deepEqual(run.unjudged, []);
    assert.deepEqual(
      run.findings.map((f) => [f.check, f.detail]),
      [['CUCM-OAUTH-01', 'OAuth with Refresh Login Flow is Disabled']],
    );
  });

  it('passes on the hardened lab (refresh logins enabled)', async () => {
    const run = await audit('hardened', OAUTH_CHECKS);
    assert.deepEqual(run.unjudged, []);
    assert.deepEqual(run.findings, []);
  });
});
