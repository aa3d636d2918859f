// The security-audit prompt text, rendered from the checklist: order, evidence calls, conditions,
// report layout (resumable Markdown, then PDF) and the rate-limit budget the run needs.
import { BadRequestError } from '../../../kernel/sdk/index.ts';
import { bindHost, type Check, type Checklist } from './checklist.ts';
import { citationLines } from './citations.ts';
import {
  callBudget,
  createReportStep,
  exportStep,
  permissionsStep,
  reportName,
  serviceOf,
} from './report-steps.ts';

export { serviceOf };

export interface AuditArgs {
  host: string;
  report: string;
  /** `all`, or topic ids separated by commas. */
  scope: string;
}

export function selectChecks(checklist: Checklist, scope: string): Check[] {
  const wanted =
    scope.trim() === '' || scope.trim() === 'all' ? undefined : scope.split(',').map((s) => s.trim());
  if (!wanted) return checklist.checks;
  const known = new Set(checklist.topics.map((t) => t.id));
  const unknown = wanted.filter((w) => !known.has(w));
  if (unknown.length > 0)
    throw new BadRequestError(`unknown scope ${unknown.join(', ')}: use all or ${[...known].join(', ')}`);
  return checklist.checks.filter((c) => wanted.includes(c.topic));
}

/** Distinct calls per service the selected checks make (shared evidence counted once). */
export function budget(checks: Check[], host: string): Record<string, number> {
  return callBudget(
    checks.flatMap((c) => c.evidence),
    host,
  );
}

export function renderAuditPrompt(checklist: Checklist, a: AuditArgs): string {
  reportName(checklist.prompt, a.host, a.report);
  const checks = selectChecks(checklist, a.scope);
  const b = budget(checks, a.host);
  const topics = checklist.topics.filter((t) => checks.some((c) => c.topic === t.id));
  const lines: string[] = [
    `# ${checklist.title}: ${a.host}`,
    '',
    `You are auditing the ${checklist.product.toUpperCase()} node or cluster \`${a.host}\` against the ${checklist.guide}, by topic. ` +
      'Gather evidence only with the tool calls listed (all read-only), judge each check by its condition, and write the report as you go. ' +
      'Never change the configuration during an audit; never paste a password, PIN or key into the report.',
    '',
    '## Before you start',
    `1. ${permissionsStep(b)}`,
    `2. Call \`${checklist.product}_check_connectivity\` with host \`${a.host}\`; if a service fails, record it in the report and mark the checks that need it as "not assessed".`,
    `3. ${createReportStep(a.report, `a level-1 title, the date, the target and the scope (${a.scope || 'all'})`, 'the last complete topic')}`,
    '',
    '## Checks, in this order',
  ];
  for (const t of topics) {
    lines.push('', `### Topic ${t.id}: ${t.title}`, '', t.summary);
    for (const c of checks.filter((x) => x.topic === t.id)) {
      lines.push(
        '',
        `#### ${c.id} ${c.title} (severity ${c.severity})`,
        `Why: ${c.rationale}`,
        'Evidence:',
        ...c.evidence.map((e) => `- \`${e.tool}\` ${JSON.stringify(bindHost(e.args, a.host))}: ${e.purpose}`),
        `Finding when: ${c.condition}`,
        `Remediation: ${c.remediation}`,
        ...citationSection(c),
      );
    }
    lines.push(
      '',
      `After the last check of this topic, append a section \`## ${t.title}\` to the report (\`common_write_report\`, mode \`append\`): one line per check with its id, PASS / FINDING / NOT ASSESSED, and the evidence that decided it (when a call fails, or its answer cannot be read in the form the check describes — an unrecognised answer, a missing row — the check is NOT ASSESSED with the reason, never PASS and never FINDING); for a FINDING add its references (document, section, URL) and benchmark ids as listed above; for a check marked UNVERIFIED add "(unverified: <reason>)", whatever its verdict.`,
    );
  }
  lines.push(
    '',
    '## Finish',
    `1. Append \`## Summary\`: a table of findings (id, severity, title, what was observed, remediation, references, and "unverified" where the check is marked so) ordered by severity (${['critical', 'high', 'medium', 'low'].join(', ')}), and the count of checks passed, failed and not assessed.`,
    `2. ${exportStep(a.report, 'summarise the findings')}`,
  );
  return lines.join('\n');
}

/** Where the check's control is described (each URL once), its benchmark ids, and its unverified mark. */
function citationSection(c: Check): string[] {
  const refs = citationLines(c);
  return [
    ...(refs.length === 1 ? [`References: ${refs[0]}`] : []),
    ...(refs.length > 1 ? ['References:', ...refs.map((r) => `- ${r}`)] : []),
    ...(c.benchmarks?.length ? [`Benchmarks: ${c.benchmarks.join(', ')}`] : []),
    ...(c.unverified ? [`UNVERIFIED: ${c.unverified}`] : []),
  ];
}
