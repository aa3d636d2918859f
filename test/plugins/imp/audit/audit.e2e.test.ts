// The IM&P security audit run as an agent would run it, from the checklist data, through the auditor's
// real MCP client: against the weak lab it must find exactly the seeded weaknesses (recall 100%, no
// false positive), against the hardened lab nothing; the report is written, read back and exported.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LabProfile } from '../../../../lab/index.ts';
import { seededWeaknesses } from '../../../../lab/weaknesses/index.ts';
import { IMP_CHECKLIST } from '../../../../plugins/imp/audit/checklist.ts';
import { auditStack, runAudit, type AuditRun } from '../../../helpers/audit-run.ts';

async function audit(profile: LabProfile): Promise<AuditRun> {
  const s = await auditStack('imp', profile);
  try {
    return await runAudit(s, IMP_CHECKLIST, `imp-audit-${profile}.md`);
  } finally {
    await s.stop();
  }
}

/** Every check of the checklist appears in the report with its verdict. */
function assertReportComplete(report: string): void {
  for (const t of IMP_CHECKLIST.topics) assert.ok(report.includes(`## ${t.title}`), t.id);
  for (const c of IMP_CHECKLIST.checks) assert.match(report, new RegExp(`^- ${c.id} `, 'm'), c.id);
}

describe('imp_security_audit end to end', () => {
  it('weak lab: finds every seeded weakness and nothing else; the report and PDF hold them', async () => {
    const { run, report, pdfBytes, wallMs } = await audit('weak');
    assert.deepEqual(run.unjudged, []);
    const expected = [...new Set(seededWeaknesses('weak', 'imp').map((w) => w.check))].sort();
    assert.deepEqual(
      run.findings.map((f) => f.check).sort(),
      expected,
      JSON.stringify(run.findings, null, 1),
    );
    assertReportComplete(report);
    for (const f of run.findings) {
      assert.ok(report.includes(`- ${f.check} FINDING (${f.severity})`), f.check);
      assert.ok(report.includes(`| ${f.check} | ${f.severity} |`), `${f.check} in the summary`);
    }
    // Spot checks that the findings say what was seen, not only that something failed.
    const detail = (id: string): string => run.findings.find((f) => f.check === id)?.detail ?? '';
    assert.match(detail('IMP-TLS-01'), /1\.0/);
    assert.match(detail('IMP-CERT-02'), /tomcat\/tomcat\.pem expires in (9|10) days/);
    assert.match(detail('IMP-ACCT-01'), /svc-integration/);
    assert.doesNotMatch(detail('IMP-ACCT-01'), /CCMAdministrator|axladmin/);
    assert.match(detail('IMP-BKP-01'), /last backup 9[78] days ago/);
    assert.match(detail('IMP-HA-01'), /DefaultCUPSubcluster: high availability off/);
    if (pdfBytes !== undefined) assert.ok(pdfBytes > 1000, `PDF of ${pdfBytes} bytes`);
    // Identical evidence calls are made once: well inside the auditor's 120 AXL and 120 SSH a minute.
    assert.ok((run.callsByTool.imp_axl_call ?? 0) <= 20, JSON.stringify(run.callsByTool));
    assert.ok((run.callsByTool.imp_os_run_command ?? 0) <= 20, JSON.stringify(run.callsByTool));
    console.log(
      `imp audit, weak lab: ${run.calls} evidence calls ${JSON.stringify(run.callsByTool)}, ${run.findings.length} findings, ${Math.round(wallMs)} ms`,
    );
  });

  it('hardened lab: no finding and nothing left unjudged', async () => {
    const { run, report, wallMs } = await audit('hardened');
    assert.deepEqual(run.unjudged, []);
    assert.deepEqual(run.findings, []);
    assertReportComplete(report);
    assert.doesNotMatch(report, /FINDING/);
    console.log(`imp audit, hardened lab: ${run.calls} evidence calls, ${Math.round(wallMs)} ms`);
  });
});
