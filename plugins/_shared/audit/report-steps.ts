// The parts every report-writing prompt shares (the security audits, the health check): the report's
// name, the rate-limit budget of its evidence calls, the opening steps (permissions, resumable report)
// and the closing export to PDF. One wording, so an agent meets the same steps in every such prompt.
import { BadRequestError, type PromptDefinition } from '../../../kernel/sdk/index.ts';
import { bindHost, type EvidenceCall } from './checklist.ts';

const REPORT_NAME = /^[A-Za-z0-9._-]{1,125}\.md$/;

/** The report name a prompt was given, or the default `<prompt>_<host>.md`. */
export function reportName(prompt: string, host: string, given: string | undefined): string {
  const name = given || `${prompt}_${host.replace(/[^A-Za-z0-9._-]/g, '_')}.md`;
  if (!REPORT_NAME.test(name)) throw new BadRequestError('report must be a file name like audit.md');
  return name;
}

/** The `report` argument of a report-writing prompt. */
export function reportArgument(defaults: string[]): PromptDefinition['arguments'][number] {
  return {
    name: 'report',
    description: 'Report file name (letters, digits, . _ -, ending in .md); default <prompt>_<host>.md',
    required: false,
    complete: (prefix) => defaults.filter((n) => n.startsWith(prefix)),
  };
}

/** Which rate-limit service a tool call spends (the tools' own `service`). */
export function serviceOf(tool: string): string {
  if (/_(axl_call|get_version|list_axl_operations)$/.test(tool)) return 'axl';
  if (/_(os_run_command|drf_status|cert_list)$/.test(tool)) return 'ssh';
  if (tool.endsWith('_risport_query')) return 'ris';
  if (/_(service_status|perfmon_query|perfmon_list_counters|log_list|log_collect)$/.test(tool))
    return 'serviceability';
  if (tool.startsWith('cuc_cupi_') || tool === 'cuc_get_version') return 'cupi';
  return 'default';
}

/** Distinct calls per service (the same tool and arguments counted once, as the runners make them). */
export function callBudget(calls: EvidenceCall[], host: string): Record<string, number> {
  const seen = new Set<string>();
  const out: Record<string, number> = {};
  for (const e of calls) {
    const key = JSON.stringify([e.tool, bindHost(e.args, host)]);
    if (seen.has(key)) continue;
    seen.add(key);
    const s = serviceOf(e.tool);
    out[s] = (out[s] ?? 0) + 1;
  }
  return out;
}

/** Step 1: the caller's permissions and rate limits against the budget. */
export function permissionsStep(budget: Record<string, number>): string {
  const calls = Object.entries(budget)
    .map(([s, n]) => `${n} ${s.toUpperCase()} call${n === 1 ? '' : 's'}`)
    .join(', ');
  return `Call \`infra_get_my_permissions\` and confirm your profile allows every tool below and that your rate limits cover this budget: ${calls} (RIS: the node itself allows 15 requests a minute for the whole cluster). If a call answers RATE_LIMITED, wait retry_after_s seconds and repeat it.`;
}

/** The step that creates the report, or resumes it after an interrupted run. */
export function createReportStep(report: string, heading: string, resumeFrom: string): string {
  return `Create the report: \`common_write_report\` with name \`${report}\`, mode \`create\`, content ${heading}. If it exists from an interrupted run, read it with \`common_read_report\` and continue with mode \`resume\` from ${resumeFrom}.`;
}

/** The last step: the PDF. */
export function exportStep(report: string, tell: string): string {
  return `Export it: \`common_export_report_pdf\` with name \`${report}\`. Tell the user where the Markdown and the PDF are and ${tell}.`;
}
