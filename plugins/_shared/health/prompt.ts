// The health-check prompt (`<product>_health_check`), rendered from its definition: the evidence calls
// in order, each item's thresholds, the report's layout (resumable Markdown, then PDF) and the budget.
import { definePrompt, type PromptDefinition } from '../../../kernel/sdk/index.ts';
import { bindHost } from '../audit/checklist.ts';
import { citationLines } from '../audit/citations.ts';
import {
  callBudget,
  createReportStep,
  exportStep,
  permissionsStep,
  reportArgument,
  reportName,
} from '../audit/report-steps.ts';
import type { HealthCheck } from './definition.ts';
import { SUMMARY_HEADING, SUMMARY_NOTE } from './report.ts';

export function renderHealthPrompt(check: HealthCheck, host: string, report: string): string {
  reportName(check.prompt, host, report);
  const budget = callBudget(
    check.items.flatMap((i) => i.evidence),
    host,
  );
  const lines: string[] = [
    `# ${check.title}: ${host}`,
    '',
    `You are checking the health of the ${check.product.toUpperCase()} cluster of \`${host}\`, every node of it. ` +
      'Gather evidence only with the tool calls listed (all read-only), judge each item by its thresholds, and write the report as you go. ' +
      'Never change the configuration; never paste a password or key into the report.',
    '',
    '## Before you start',
    `1. ${permissionsStep(budget)}`,
    `2. ${createReportStep(report, `a level-1 title, the date (UTC) and the target, then the heading \`${SUMMARY_HEADING}\` with the one line "${SUMMARY_NOTE}"`, 'the first item without a section')}`,
    '',
    '## Items, in this order',
  ];
  for (const item of check.items) {
    const refs = citationLines(item);
    lines.push(
      '',
      `### ${item.id} ${item.title}`,
      `Why: ${item.purpose}`,
      'Evidence:',
      ...item.evidence.map((e) => `- \`${e.tool}\` ${JSON.stringify(bindHost(e.args, host))}: ${e.purpose}`),
      `Verdicts: ${item.thresholds}`,
      ...(refs.length === 1 ? [`Sources: ${refs[0]}`] : ['Sources:', ...refs.map((r) => `- ${r}`)]),
    );
  }
  lines.push(
    '',
    `After each item append a section \`## <title> (<id>)\` (\`common_write_report\`, mode \`append\`): "Thresholds: " and the thresholds, then a table | Node | Verdict | Observed | with one row per node the answer lists (or one row "cluster" for a cluster-wide item) and the figures that decided it. When a call fails, or a node's answer cannot be read in the form the item describes (an error in its row, a counter missing, a node not reached), that row is NOT ASSESSED with the reason: never OK.`,
    '',
    '## Finish',
    `1. Put the summary under \`${SUMMARY_HEADING}\`, so that it opens the report: \`common_write_report\` mode \`insert_after\`, anchor \`${SUMMARY_HEADING}\`, content a table | Item | Verdict | Not OK | with each item's worst verdict (CRITICAL, WARNING, NOT ASSESSED, OK in that order) and the rows that are not OK, then the count of rows per verdict.`,
    `2. ${exportStep(report, 'name every CRITICAL and WARNING row with what to look at next')}`,
  );
  return lines.join('\n');
}

/** `<product>_health_check`: admin and auditor (the backup history is theirs to read). */
export function healthCheckPrompt(check: HealthCheck, profiles: string[]): PromptDefinition {
  return definePrompt({
    name: check.prompt,
    title: check.title,
    description: `Health report of a ${check.product.toUpperCase()} cluster: ${check.items.map((i) => i.title).join(', ')}, every node judged OK / WARNING / CRITICAL against stated thresholds (NOT ASSESSED when evidence fails), as a resumable Markdown report and its PDF.`,
    profiles,
    arguments: [
      {
        name: 'host',
        description: `A ${check.product.toUpperCase()} node of the cluster, as its credentials are stored (see ${check.product}_list_credentials); the other nodes are read with the credentials stored under their names`,
        required: true,
      },
      reportArgument([`${check.prompt}.md`]),
    ],
    render(args) {
      const host = args.host ?? '';
      return [
        { role: 'user', text: renderHealthPrompt(check, host, reportName(check.prompt, host, args.report)) },
      ];
    },
  });
}
