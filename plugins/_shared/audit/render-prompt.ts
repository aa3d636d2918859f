// The security-audit prompt text, rendered from the checklist: order, evidence calls, conditions,
// report layout (resumable Markdown, then PDF) and the rate-limit budget the run needs.
import { BadRequestError } from '../../../kernel/sdk/index.ts';
import { bindHost, type Check, type Checklist } from './checklist.ts';
import { citationLines } from './citations.ts';

export interface AuditArgs {
  host: string;
  report: string;
  /** `all`, or topic ids separated by commas. */
  scope: string;
}

const REPORT_NAME = /^[A-Za-z0-9._-]{1,125}\.md$/;

/** Which rate-limit service a tool call spends (the tools' own `service`). */
export function serviceOf(tool: string): string {
  if (/_(axl_call|get_version|list_axl_operations)$/.test(tool)) return 'axl';
  if (/_(os_run_command|drf_status|cert_list)$/.test(tool)) return 'ssh';
  if (tool.endsWith('_risport_query')) return 'ris';
  if (tool.endsWith('_service_status')) return 'serviceability';
  if (tool.startsWith('cuc_cupi_') || tool === 'cuc_get_version') return 'cupi';
  return 'default';
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
  const seen = new Set<string>();
  const out: Record<string, number> = {};
  for (const c of checks)
    for (const e of c.evidence) {
      const key = JSON.stringify([e.tool, bindHost(e.args, host)]);
      if (seen.has(key)) continue;
      seen.add(key);
      const s = serviceOf(e.tool);
      out[s] = (out[s] ?? 0) + 1;
    }
  return out;
}

export function renderAuditPrompt(checklist: Checklist, a: AuditArgs): string {
  if (!REPORT_NAME.test(a.report)) throw new BadRequestError('report must be a file name like audit.md');
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
    `1. Call \`infra_get_my_permissions\` and confirm your profile allows every tool below and that your rate limits cover this budget: ${Object.entries(
      b,
    )
      .map(([s, n]) => `${n} ${s.toUpperCase()} call${n === 1 ? '' : 's'}`)
      .join(
        ', ',
      )} (RIS: the node itself allows 15 requests a minute for the whole cluster). If a call answers RATE_LIMITED, wait retry_after_s seconds and repeat it.`,
    `2. Call \`${checklist.product}_check_connectivity\` with host \`${a.host}\`; if a service fails, record it in the report and mark the checks that need it as "not assessed".`,
    `3. Create the report: \`common_write_report\` with name \`${a.report}\`, mode \`create\`, content a level-1 title, the date, the target and the scope (${a.scope || 'all'}). If it exists from an interrupted run, read it with \`common_read_report\` and continue with mode \`resume\` from the last complete topic.`,
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
    `2. Export it: \`common_export_report_pdf\` with name \`${a.report}\`. Tell the user where the Markdown and the PDF are and summarise the findings.`,
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
