// The IM&P security audit run as an agent would run it, from the checklist data, through the auditor's
// real MCP client: against the weak lab it must find exactly the seeded weaknesses (recall 100%, no
// false positive), against the hardened lab nothing; the report is written, read back and exported.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LabProfile } from '../../../../lab/index.ts';
import { IMP_CHECKLIST } from '../../../../plugins/imp/audit/checklist.ts';
import {
  assertFindsExactlySeeded,
  assertReportComplete,
  auditLab,
  type AuditRun,
} from '../../../helpers/audit-run.ts';

const audit = (profile: LabProfile): Promise<AuditRun> => auditLab(IMP_CHECKLIST, profile);

describe('imp_security_audit end to end', () => {
  it('weak lab: finds every seeded weakness and nothing else; the report and PDF hold them', async () => {
    const weak = await audit('weak');
    assertFindsExactlySeeded(IMP_CHECKLIST, weak);
    const { run, pdfBytes, wallMs } = weak;
    // Spot checks that the findings say what was seen, not only that something failed.
    const detail = (id: string): string => run.findings.find((f) => f.check === id)?.detail ?? '';
    assert.match(detail('IMP-TLS-01'), /1\.0/);
    assert.match(detail('IMP-CERT-02'), /tomcat\/tomcat\.pem expires in (9|10) days/);
    assert.match(detail('IMP-ACCT-01'), /svc-integration/);
    assert.doesNotMatch(detail('IMP-ACCT-01'), /CCMAdministrator|axladmin/);
    assert.match(detail('IMP-BKP-01'), /last successful backup 97 days ago .*3 later run\(s\) failed/);
    assert.match(detail('IMP-HA-01'), /DefaultCUPSubcluster: high availability off/);
    assert.equal(
      detail('IMP-OS-02'),
      'NTP is not synchronised: unsynchronised time server re-starting polling server every 64 s',
    );
    assert.match(
      detail('IMP-PWD-02'),
      /^Default Credential Policy: minimum length below 8, trivial passwords accepted/,
    );
    assert.equal(detail('IMP-XMPP-02'), 'XMPP router-to-router connections do not use TLS');
    assert.match(detail('IMP-FED-03'), /not required to present a certificate/);
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
    assertReportComplete(IMP_CHECKLIST, report);
    assert.doesNotMatch(report, /FINDING/);
    console.log(`imp audit, hardened lab: ${run.calls} evidence calls, ${Math.round(wallMs)} ms`);
  });
});
