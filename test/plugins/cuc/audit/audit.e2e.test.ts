// The Unity Connection security audit run as an agent would run it, from the checklist data, through
// the auditor's real MCP client: against the weak lab it must find exactly the seeded weaknesses
// (recall 100%, no false positive), against the hardened lab nothing; the report is written, read back
// and exported to PDF.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LabProfile } from '../../../../lab/index.ts';
import { CUC_CHECKLIST } from '../../../../plugins/cuc/audit/checklist.ts';
import {
  assertFindsExactlySeeded,
  assertReportComplete,
  auditLab,
  type AuditRun,
} from '../../../helpers/audit-run.ts';

const audit = (profile: LabProfile): Promise<AuditRun> => auditLab(CUC_CHECKLIST, profile);

describe('cuc_security_audit end to end', () => {
  it('weak lab: finds every seeded weakness and nothing else; the report and PDF hold them', async () => {
    const weak = await audit('weak');
    assertFindsExactlySeeded(CUC_CHECKLIST, weak);
    const { run, pdfBytes, wallMs } = weak;
    // The findings say what was seen, and name exactly the seeded objects.
    const detail = (id: string): string => run.findings.find((f) => f.check === id)?.detail ?? '';
    assert.match(detail('CUC-TLS-01'), /1\.0/);
    assert.match(detail('CUC-CRT-02'), /expires in (9|10) days/);
    assert.match(detail('CUC-PIN-01'), /Recommended Voice Mail Authentication Rule: minimum length 4/);
    assert.match(detail('CUC-PIN-06'), /^3 mailboxes .*: jsmith, mlee, rjones$/);
    assert.match(detail('CUC-PIN-07'), /^3 PINs .*: jsmith, mlee, rjones$/);
    assert.equal(detail('CUC-ACC-01'), 'mailbox users with administrator roles: mlee (System Administrator)');
    assert.equal(detail('CUC-RST-01'), 'international numbers allowed by: Default Transfer');
    assert.equal(detail('CUC-RST-02'), 'long-distance numbers allowed by: Default System Transfer');
    assert.match(detail('CUC-BKP-01'), /last successful backup 45 days ago .*1 later run\(s\) failed/);
    assert.doesNotMatch(JSON.stringify(run.findings), /12345/, 'no PIN in a finding');
    if (pdfBytes !== undefined) assert.ok(pdfBytes > 1000, `PDF of ${pdfBytes} bytes`);
    // Identical evidence calls are made once: far inside the auditor's 120 CUPI and 120 SSH a minute.
    assert.ok((run.callsByTool.cuc_cupi_list ?? 0) <= 10, JSON.stringify(run.callsByTool));
    assert.ok((run.callsByTool.cuc_os_run_command ?? 0) <= 20, JSON.stringify(run.callsByTool));
    console.log(
      `cuc audit, weak lab: ${run.calls} evidence calls ${JSON.stringify(run.callsByTool)}, ${run.findings.length} findings, ${Math.round(wallMs)} ms`,
    );
  });

  it('hardened lab: no finding and nothing left unjudged', async () => {
    const { run, report, wallMs } = await audit('hardened');
    assert.deepEqual(run.unjudged, []);
    assert.deepEqual(run.findings, []);
    assertReportComplete(CUC_CHECKLIST, report);
    assert.doesNotMatch(report, /FINDING/);
    console.log(`cuc audit, hardened lab: ${run.calls} evidence calls, ${Math.round(wallMs)} ms`);
  });
});
