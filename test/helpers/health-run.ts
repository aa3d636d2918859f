// The CUCM health check run as an agent would run it, through real MCP clients against the lab at the
// `site` scale: the auditor gets the prompt (prompts/get), makes the evidence calls it lists, writes the
// report section by section and exports the PDF. The e2e test and scripts/health-report.ts share it.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runHealthCheck, type HealthRun } from '../../plugins/_shared/health/run.ts';
import { healthReportSections, SUMMARY_HEADING } from '../../plugins/_shared/health/report.ts';
import { CUCM_HEALTH } from '../../plugins/cucm/health/items.ts';
import { mcpCaller } from './audit-run.ts';
import { prepareNode, startProductStack, type ProductStack } from './product-stack.ts';

export interface HealthReportRun {
  prompt: string;
  run: HealthRun;
  report: string;
  /** The exported PDF, in the auditor's report folder. */
  pdf: string;
}

/** A site-scale stack whose auditor may run the health check (RIS toolkit downloaded by the admin). */
export async function healthStack(): Promise<ProductStack> {
  // Chromium shares the machine with the whole suite: it gets the PDF renderer's largest budget.
  const s = await startProductStack({
    lab: { scale: 'site' },
    seedSubscribers: true,
    env: { REPORT_PDF_TIMEOUT_MS: '240000' },
  });
  try {
    await prepareNode(s, 'cucm');
    await s.ok('admin', 'cucm_download_ris_toolkit', { host: s.node('cucm').name });
    return s;
  } catch (err) {
    await s.stop();
    throw err;
  }
}

export async function runHealthReport(s: ProductStack, report: string): Promise<HealthReportRun> {
  const host = s.node('cucm').name;
  const got = await s.mcp.auditor.client.getPrompt({
    name: CUCM_HEALTH.prompt,
    arguments: { host, report },
  });
  const first = got.messages[0]?.content;
  const prompt = first && first.type === 'text' ? first.text : '';
  const run = await runHealthCheck(CUCM_HEALTH, host, mcpCaller(s.mcp.auditor));
  const parts = healthReportSections(CUCM_HEALTH, host, run);
  await s.ok('auditor', 'common_write_report', { name: report, mode: 'create', content: parts.head });
  for (const content of parts.sections)
    await s.ok('auditor', 'common_write_report', { name: report, mode: 'append', content });
  await s.ok('auditor', 'common_write_report', {
    name: report,
    mode: 'insert_after',
    anchor: SUMMARY_HEADING,
    content: parts.summary,
  });
  let text = '';
  for (let cursor: number | null = 0; cursor !== null;) {
    const r = await s.ok('auditor', 'common_read_report', { name: report, cursor });
    text += String(r.content);
    cursor = r.next_cursor as number | null;
  }
  // Chromium prints it: on a loaded machine that takes longer than the SDK's default 60 s request timeout.
  const answer = await s.mcp.auditor.client.callTool(
    { name: 'common_export_report_pdf', arguments: { name: report } },
    undefined,
    { timeout: 360_000 },
  );
  const exported = (answer.structuredContent ?? {}) as Record<string, unknown>;
  assert.equal(typeof exported.pdf, 'string', JSON.stringify(answer));
  return { prompt, run, report: text, pdf: join(s.k.stateDir, 'reports', 'auditor1', String(exported.pdf)) };
}
