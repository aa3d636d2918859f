// The CUCM serviceability prompts through a real MCP client against the lab at the `site` scale: the
// auditor gets cucm_health_check (prompts/get), makes every call it lists, writes the report and
// exports the PDF, whose text carries every node and verdict; the operator gets
// cucm_troubleshoot_registration and can make each call it names; each prompt is refused to the
// profile it is not for.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { bindWorkflowArgs } from '../../../../plugins/_shared/health/workflow.ts';
import { CUCM_HEALTH } from '../../../../plugins/cucm/health/items.ts';
import { CUCM_TROUBLESHOOT_REGISTRATION } from '../../../../plugins/cucm/health/troubleshoot.ts';
import { healthStack, runHealthReport, type HealthReportRun } from '../../../helpers/health-run.ts';
import type { ProductStack } from '../../../helpers/product-stack.ts';

const promptText = (r: { messages: { content: { type: string; text?: string } }[] }): string =>
  r.messages.map((m) => (m.content.type === 'text' ? (m.content.text ?? '') : '')).join('\n');

describe('the CUCM health check and registration workflow at the site scale, through MCP', () => {
  let s: ProductStack;
  let h: HealthReportRun;
  before(async () => {
    s = await healthStack();
    h = await runHealthReport(s, 'health-site.md');
  });
  after(async () => {
    await s?.stop();
  });

  it('prompts/get renders the items for the auditor; the operator may not get it', async () => {
    for (const item of CUCM_HEALTH.items) {
      assert.ok(h.prompt.includes(`### ${item.id} ${item.title}`), item.id);
      for (const e of item.evidence) assert.ok(h.prompt.includes(`\`${e.tool}\``), e.tool);
    }
    await assert.rejects(
      s.mcp.operator.client.getPrompt({ name: 'cucm_health_check', arguments: { host: 'cucm-pub' } }),
    );
  });

  it('every node of the cluster is judged, each item has a verdict, nothing is OK without evidence', () => {
    const pub = s.node('cucm');
    const nodes = [pub.name, ...(pub.subscribers ?? []).map((n) => n.name)];
    assert.ok(nodes.length >= 2, 'the site scale has a subscriber');
    assert.equal(h.run.items.length, CUCM_HEALTH.items.length);
    for (const id of ['CUCM-HEALTH-CPU', 'CUCM-HEALTH-MEMORY', 'CUCM-HEALTH-DISK', 'CUCM-HEALTH-SERVICES']) {
      const judged = h.run.items.find((i) => i.id === id)?.judgements ?? [];
      assert.deepEqual(
        judged.map((j) => j.subject).sort(),
        [...nodes].sort(),
        `${id}: ${JSON.stringify(judged)}`,
      );
      for (const j of judged) assert.notEqual(j.verdict, 'NOT ASSESSED', `${id} ${j.subject}: ${j.observed}`);
    }
    // The lab's figures: 16 % on the busiest CPU, 62 % memory, Common 47 % full.
    const cpu = h.run.items.find((i) => i.id === 'CUCM-HEALTH-CPU')?.judgements[0];
    assert.match(cpu?.observed ?? '', /% CPU Time 16%/);
    // The lab has never run a backup: that is CRITICAL, not OK.
    const backup = h.run.items.find((i) => i.id === 'CUCM-HEALTH-BACKUP')?.judgements[0];
    assert.equal(backup?.verdict, 'CRITICAL', backup?.observed);
    // Registration from RisPort70: the site's 2,000 phones, almost all registered.
    const ris = h.run.items.find((i) => i.id === 'CUCM-HEALTH-REGISTRATION')?.judgements[0];
    assert.equal(ris?.verdict, 'OK', ris?.observed);
    // A node whose certificates cannot be read (no OS credential stored for it) is NOT ASSESSED.
    const certs = h.run.items.find((i) => i.id === 'CUCM-HEALTH-CERTIFICATES')?.judgements ?? [];
    for (const j of certs.filter((x) => /CredentialError/.test(x.observed)))
      assert.equal(j.verdict, 'NOT ASSESSED');
    assert.ok(certs.some((j) => j.subject === pub.name && j.verdict !== 'NOT ASSESSED'));
  });

  it('the report and its PDF carry every node and every verdict', () => {
    assert.ok(existsSync(h.pdf), h.pdf);
    assert.ok(readFileSync(h.pdf).subarray(0, 5).equals(Buffer.from('%PDF-')));
    // Words as the PDF lays them out, a name broken after a hyphen at a line end joined again.
    const text = execFileSync('pdftotext', [h.pdf, '-'], { encoding: 'utf8' })
      .replace(/-\s*\n\s*/g, '-')
      .replace(/\s+/g, ' ');
    const pub = s.node('cucm');
    for (const node of [pub.name, ...(pub.subscribers ?? []).map((n) => n.name)]) {
      assert.ok(h.report.includes(`| ${node} |`), node);
      assert.ok(text.includes(node), `${node} in the PDF`);
    }
    for (const item of CUCM_HEALTH.items) assert.ok(text.includes(item.id), `${item.id} in the PDF`);
    const verdicts = new Set(h.run.items.flatMap((i) => i.judgements.map((j) => j.verdict)));
    for (const v of verdicts) assert.ok(text.includes(v), `${v} in the PDF`);
    // The summary opens the report (inserted under its heading at the end of the run).
    const summaryAt = h.report.indexOf('\n## Summary\n');
    assert.ok(
      summaryAt > 0 && summaryAt < h.report.indexOf('(CUCM-HEALTH-SERVICES)'),
      h.report.slice(0, 400),
    );
    assert.match(h.report, /\| Certificate expiry \| \*\*(OK|WARNING|CRITICAL|NOT ASSESSED)\*\* \|/);
    assert.ok(
      text.indexOf('Summary') < text.indexOf('CUCM-HEALTH-SERVICES'),
      'the PDF opens with the summary',
    );
  });

  it('cucm_troubleshoot_registration: the operator gets the steps and can make every call', async () => {
    const host = s.node('cucm').name;
    const got = await s.mcp.operator.client.getPrompt({
      name: 'cucm_troubleshoot_registration',
      arguments: { host, device: 'SEP*', symptom: 'phones show Registering' },
    });
    const text = promptText(got);
    for (const [i, step] of CUCM_TROUBLESHOOT_REGISTRATION.steps.entries())
      assert.ok(text.includes(`## Step ${i + 1}: ${step.title}`), step.title);
    await assert.rejects(
      s.mcp.auditor.client.getPrompt({ name: 'cucm_troubleshoot_registration', arguments: { host } }),
    );
    // Each call as the prompt words it (the trace file from the listing before it).
    let newest = '';
    for (const step of CUCM_TROUBLESHOOT_REGISTRATION.steps)
      for (const c of step.calls) {
        const args = bindWorkflowArgs(c.args, host, 'SEP*');
        if (c.fillIn) args.files = [newest];
        const r = await s.ok('operator', c.tool, args);
        if (c.tool === 'cucm_log_list') {
          const files = ((r.nodes as { files?: { path: string }[] }[])[0]?.files ?? []).map((f) => f.path);
          assert.ok(files.length > 0, 'Cisco CallManager traces of the last hour');
          newest = files.sort().at(-1) ?? '';
        }
        if (c.tool === 'cucm_risport_query') assert.ok((r.devices as unknown[]).length > 0);
      }
  });
});
