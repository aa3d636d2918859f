// The CUCM security audit run end to end as an agent would run it: every evidence call of the
// checklist through a real MCP client as the auditor, against the weak lab (every seeded weakness
// found, nothing else) and the hardened lab (no finding); the report written, read back and exported.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { DEMO_CREDENTIALS } from '../../../../lab/credentials.ts';
import { seededWeaknesses } from '../../../../lab/weaknesses/index.ts';
import { CUCM_CHECKLIST } from '../../../../plugins/cucm/audit/checklist.ts';
import { auditStack, runAudit, type AuditRun } from '../../../helpers/audit-run.ts';
import type { ProductStack } from '../../../helpers/product-stack.ts';
import { actionOutcomes } from '../../../helpers/kernel.ts';

const chromium = existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium');

/** Runs the audit on a fresh stack, checking on the way that it was read-only and all allowed. */
async function audit(profile: 'weak' | 'hardened'): Promise<{ a: AuditRun; s: ProductStack }> {
  const s = await auditStack('cucm', profile);
  const writes = s.lab.state.log.writes.length;
  const mark = s.mark();
  const a = await runAudit(s, CUCM_CHECKLIST, `cucm-audit-${profile}.md`);
  assert.equal(s.lab.state.log.writes.length, writes, 'the audit changed nothing on the node');
  const calls = actionOutcomes(s.auditSince(mark)).filter(
    (r) => r.client === 'auditor1' && String(r.tool_name).startsWith('cucm_'),
  );
  assert.equal(calls.length, a.run.calls, 'one tool call per distinct evidence call');
  assert.deepEqual([...new Set(calls.map((r) => r.result))], ['ALLOWED']);
  console.log(
    `cucm audit, ${profile} lab: ${a.run.calls} calls ${JSON.stringify(a.run.callsByTool)}, ${Math.round(a.wallMs)} ms, ` +
      `${a.run.findings.length} findings, PDF ${a.pdfBytes ?? 'not exercised'} bytes`,
  );
  return { a, s };
}

describe('cucm_security_audit against the weak lab', () => {
  let a: AuditRun;
  let s: ProductStack;
  before(async () => ({ a, s } = await audit('weak')));
  after(() => s.stop());

  it('finds every seeded weakness and nothing else, judging every check', () => {
    assert.deepEqual(a.run.unjudged, []);
    const found = a.run.findings.map((f) => f.check);
    assert.equal(new Set(found).size, found.length, 'one finding per check');
    const expected = [...new Set(seededWeaknesses('weak', 'cucm').map((w) => w.check))].sort();
    assert.deepEqual([...found].sort(), expected, 'recall 100% and no false positive');
    for (const f of a.run.findings) {
      const check = CUCM_CHECKLIST.checks.find((c) => c.id === f.check);
      assert.equal(f.severity, check?.severity);
      assert.ok(f.detail.length > 0);
    }
  });

  it('observes what the lab seeded, in the words of the evidence', () => {
    const detail = (id: string): string => a.run.findings.find((f) => f.check === id)?.detail ?? '';
    assert.match(detail('CUCM-TLS-01'), /1\.0/);
    assert.match(detail('CUCM-CERT-01'), /tomcat\/tomcat\.pem expires in (9|10) days/);
    assert.match(detail('CUCM-PRIV-01'), /svc-integration/);
    assert.doesNotMatch(detail('CUCM-PRIV-01'), /CCMAdministrator|axladmin/);
    assert.match(detail('CUCM-SIPT-01'), /SIP_TO_SBC/);
    assert.match(detail('CUCM-AUTOREG-02'), /SEP0A1B2C3D4E04 \(Auto 9000/);
    assert.match(detail('CUCM-TOLL-01'), /9\.011!/);
    assert.match(detail('CUCM-LOG-02'), /^CDRs disabled on 2 of 2 call-processing nodes/);
    // Tokenless mixed mode needs no CTL Provider: only CAPF is judged.
    // The state comes from ControlCenterServices (soapGetServiceStatus), the CLI list only as a fallback.
    assert.match(
      detail('CUCM-SVC-01'),
      /^Cisco Certificate Authority Proxy Function: STOPPED \(Service Not Activated\)$/,
    );
    assert.match(detail('CUCM-OS-02'), /^NTP is not synchronised: unsynchronised/);
  });

  it('writes a report that reads back with every finding and no secret, and exports its PDF', () => {
    for (const f of a.run.findings)
      assert.ok(a.report.includes(`${f.check} FINDING (${f.severity})`), f.check);
    for (const c of CUCM_CHECKLIST.checks) assert.ok(a.report.includes(`- ${c.id} `), c.id);
    assert.ok(a.report.includes('## Summary'));
    for (const cred of Object.values(DEMO_CREDENTIALS)) assert.ok(!a.report.includes(cred.password));
    if (chromium) assert.ok((a.pdfBytes ?? 0) > 1000, 'PDF exported');
    else assert.equal(a.pdfBytes, undefined);
  });

  it('stays within the auditor rate limits', () => {
    assert.ok((a.run.callsByTool.cucm_axl_call ?? 0) <= 60);
    assert.ok((a.run.callsByTool.cucm_os_run_command ?? 0) <= 60);
    assert.ok((a.run.callsByTool.cucm_risport_query ?? 0) <= 2);
  });
});

describe('cucm_security_audit against the hardened lab', () => {
  let a: AuditRun;
  let s: ProductStack;
  before(async () => ({ a, s } = await audit('hardened')));
  after(() => s.stop());

  it('reports no finding and judges every check', () => {
    assert.deepEqual(a.run.findings, []);
    assert.deepEqual(a.run.unjudged, []);
    for (const c of CUCM_CHECKLIST.checks) assert.ok(a.report.includes(`- ${c.id} PASS`), c.id);
    if (chromium) assert.ok((a.pdfBytes ?? 0) > 1000, 'PDF exported');
  });
});
