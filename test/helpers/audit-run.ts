// A security audit run as an agent would run it, from the checklist data, through real MCP clients
// against the lab: the auditor gathers the evidence and writes the report, then exports the PDF.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { LabProfile } from '../../lab/index.ts';
import { seededWeaknesses } from '../../lab/weaknesses/index.ts';
import type { Check, Checklist } from '../../plugins/_shared/audit/checklist.ts';
import { citationText } from '../../plugins/_shared/audit/citations.ts';
import {
  runChecklist,
  type ChecklistRun,
  type ToolCaller,
} from '../../plugins/_shared/audit/run-checklist.ts';
import type { ConnectedClient } from './mcp-client.ts';
import { prepareNode, startProductStack, type ProductStack } from './product-stack.ts';

export interface AuditRun {
  run: ChecklistRun;
  report: string;
  /** Bytes of the exported PDF, or undefined when Chromium is absent (the reason was printed). */
  pdfBytes: number | undefined;
  wallMs: number;
}

/** What the lab seeds: a profile, or exactly a list of weakness ids (over a profile's other data). */
export type AuditSeeding = LabProfile | { weaknesses: readonly string[]; profile?: LabProfile };

/** A stack whose auditor can audit the product's lab node (schemas downloaded by the admin). */
export async function auditStack(
  product: 'cucm' | 'imp' | 'cuc',
  seeding: AuditSeeding,
): Promise<ProductStack> {
  const lab = typeof seeding === 'string' ? { profile: seeding } : seeding;
  const s = await startProductStack({ lab });
  try {
    await prepareNode(s, product);
    if (product === 'cucm') await s.ok('admin', 'cucm_download_ris_toolkit', { host: s.node('cucm').name });
    return s;
  } catch (err) {
    await s.stop();
    throw err;
  }
}

export async function runAudit(s: ProductStack, checklist: Checklist, reportName: string): Promise<AuditRun> {
  const host = s.node(checklist.product).name;
  const started = performance.now();
  // The prompt renders for the auditor (the agent would read it first).
  const prompt = await s.ok('auditor', 'infra_get_prompt', {
    name: checklist.prompt,
    arguments: { host, report: reportName },
  });
  assert.ok(JSON.stringify(prompt).includes(checklist.checks[0]?.id ?? '\0'));
  const run = await runChecklist(checklist, host, mcpCaller(s.mcp.auditor));
  await writeReport(s, checklist, reportName, host, run);
  const report = await readReport(s, reportName);
  const pdfBytes = await exportPdf(s, reportName);
  return { run, report, pdfBytes, wallMs: performance.now() - started };
}

/** Evidence calls through a real MCP client: the tool's structured result, or its error. */
export function mcpCaller(client: ConnectedClient): ToolCaller {
  return async (tool, args) => {
    const r = await client.call(tool, args);
    const sc = (r.structuredContent ?? {}) as Record<string, unknown>;
    return r.isError
      ? { ok: false, error: String(sc.error), message: String(sc.message) }
      : { ok: true, data: sc };
  };
}

async function writeReport(
  s: ProductStack,
  checklist: Checklist,
  name: string,
  host: string,
  run: ChecklistRun,
): Promise<void> {
  const [first = '', ...rest] = reportSections(checklist, host, run);
  await s.ok('auditor', 'common_write_report', { name, mode: 'create', content: first });
  for (const content of rest) await s.ok('auditor', 'common_write_report', { name, mode: 'append', content });
}

/**
 * The report as the prompt asks for it, in the pieces written one after the other (title, one section
 * per topic, the summary): each finding with its references and benchmark ids, and every check of an
 * unverified name marked so, in its line and in the summary.
 */
export function reportSections(checklist: Checklist, host: string, run: ChecklistRun): string[] {
  const marked = (c: Check): string => (c.unverified ? ` (unverified: ${c.unverified})` : '');
  const topics = checklist.topics.map((t) => {
    const lines = checklist.checks
      .filter((c) => c.topic === t.id)
      .map((c) => {
        const f = run.findings.find((x) => x.check === c.id);
        const u = run.unjudged.find((x) => x.check === c.id);
        const verdict = f
          ? `FINDING (${c.severity}): ${f.detail}. ${findingCitation(c)}`
          : u
            ? `NOT ASSESSED: ${u.reason}`
            : 'PASS';
        return `- ${c.id} ${verdict}${marked(c)}`;
      });
    return `\n## ${t.title}\n\n${lines.join('\n')}\n`;
  });
  const cell = (t: string): string => t.replaceAll('|', '\\|');
  const table = run.findings
    .map((f) => {
      const c = checklist.checks.find((x) => x.id === f.check);
      const refs = c ? citationText(c) : '';
      const verified = c?.unverified ? `unverified: ${c.unverified}` : 'verified';
      return `| ${f.check} | ${f.severity} | ${cell(f.title)} | ${cell(refs)} | ${cell(verified)} |`;
    })
    .join('\n');
  return [
    `# ${checklist.title}: ${host}\n\nScope: all. Checks: ${checklist.checks.length}.\n`,
    ...topics,
    `\n## Summary\n\n| Check | Severity | Title | References | Verification |\n|---|---|---|---|---|\n${table}\n`,
  ];
}

/** A finding's sources in the report: the vendor text, the benchmark ids. */
function findingCitation(c: Check): string {
  const bench = c.benchmarks?.length ? ` Benchmarks: ${c.benchmarks.join(', ')}.` : '';
  return `References: ${citationText(c)}.${bench}`;
}

async function readReport(s: ProductStack, name: string): Promise<string> {
  let text = '';
  let cursor: number | null = 0;
  while (cursor !== null) {
    const r = await s.ok('auditor', 'common_read_report', { name, cursor });
    text += String(r.content);
    cursor = r.next_cursor as number | null;
  }
  return text;
}

async function exportPdf(s: ProductStack, name: string): Promise<number | undefined> {
  const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(chromium)) {
    console.log(`PDF export not exercised: no Chromium at ${chromium} (CI installs it)`);
    return undefined;
  }
  const r = await s.ok('auditor', 'common_export_report_pdf', { name });
  const file = join(s.k.stateDir, 'reports', 'auditor1', String(r.pdf));
  assert.ok(readFileSync(file).subarray(0, 5).equals(Buffer.from('%PDF-')));
  // Read the PDF back as text where poppler is installed (CI installs it): the summary must be in it.
  try {
    const text = execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' });
    assert.match(text, /Summary/, 'the PDF carries the report');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    console.log('PDF text not read back: pdftotext is absent (CI installs poppler-utils)');
  }
  return statSync(file).size;
}

/** An audit on a fresh stack of the product's lab, the stack stopped afterwards. */
export async function auditLab(checklist: Checklist, profile: LabProfile): Promise<AuditRun> {
  const s = await auditStack(checklist.product, profile);
  try {
    return await runAudit(s, checklist, `${checklist.product}-audit-${profile}.md`);
  } finally {
    await s.stop();
  }
}

/** Every topic and every check of the checklist appears in the report with its verdict. */
export function assertReportComplete(checklist: Checklist, report: string): void {
  for (const t of checklist.topics) assert.ok(report.includes(`## ${t.title}`), t.id);
  for (const c of checklist.checks) assert.match(report, new RegExp(`^- ${c.id} `, 'm'), c.id);
}

/**
 * The weak lab's findings are exactly its seeded weaknesses (recall 100%, no false positive), none
 * unjudged, each in the report's section and its summary.
 */
export function assertFindsExactlySeeded(checklist: Checklist, a: AuditRun): void {
  assert.deepEqual(a.run.unjudged, []);
  const expected = [...new Set(seededWeaknesses('weak', checklist.product).map((w) => w.check))].sort();
  assert.deepEqual(
    a.run.findings.map((f) => f.check).sort(),
    expected,
    JSON.stringify(a.run.findings, null, 1),
  );
  assertReportComplete(checklist, a.report);
  for (const f of a.run.findings) {
    assert.ok(a.report.includes(`- ${f.check} FINDING (${f.severity})`), f.check);
    assert.ok(a.report.includes(`| ${f.check} | ${f.severity} |`), `${f.check} in the summary`);
  }
  assertReportCites(checklist, a);
}

/** Each finding's line and summary row carry its references, and its unverified mark where set. */
export function assertReportCites(checklist: Checklist, a: AuditRun): void {
  const lines = a.report.split('\n');
  for (const f of a.run.findings) {
    const c = checklist.checks.find((x) => x.id === f.check);
    assert.ok(c, f.check);
    const line = lines.find((l) => l.startsWith(`- ${c.id} FINDING`)) ?? '';
    const row = lines.find((l) => l.startsWith(`| ${c.id} |`)) ?? '';
    for (const text of [line, row.replaceAll('\\|', '|')]) {
      assert.ok(text.includes(citationText(c)), `${c.id}: references missing from ${text}`);
      if (c.unverified) assert.ok(text.includes(`unverified: ${c.unverified}`), `${c.id}: unverified mark`);
    }
    for (const b of c.benchmarks ?? []) assert.ok(line.includes(b), `${c.id}: benchmark ${b}`);
  }
}
