// The health report as the prompt asks for it, in the pieces written one after the other: the title,
// one section per item (a row per node with its verdict and what was observed), then the summary.
// The runner's tests, the e2e run and the demo script write exactly these pieces.
import type { HealthCheck, Judgement, Verdict } from './definition.ts';
import { VERDICTS } from './definition.ts';
import type { HealthRun } from './run.ts';
import { worst } from './run.ts';

const cell = (t: string): string => t.replaceAll('|', '\\|').replaceAll('\n', ' ');

/** The table of one item's judgements (the same layout in every section). */
export function judgementTable(judgements: Judgement[]): string {
  const rows = judgements.map((j) => `| ${cell(j.subject)} | **${j.verdict}** | ${cell(j.observed)} |`);
  return ['| Node | Verdict | Observed |', '|---|---|---|', ...rows].join('\n');
}

/** The summary's heading: written with the title, its table inserted under it once every item is judged. */
export const SUMMARY_HEADING = '## Summary';
export const SUMMARY_NOTE = "Each item's worst verdict; the rows behind it are in the item's section below.";

export interface HealthReportParts {
  /** The title, date and target, and the summary heading with its note (mode create). */
  head: string;
  /** One section per item (mode append, in order). */
  sections: string[];
  /** The summary table (mode insert_after, anchor SUMMARY_HEADING), so it opens the report. */
  summary: string;
}

export function healthReportSections(
  check: HealthCheck,
  host: string,
  run: HealthRun,
  at = new Date(),
): HealthReportParts {
  const sections = check.items.map((item) => {
    const judged = run.items.find((i) => i.id === item.id)?.judgements ?? [
      { subject: 'cluster', verdict: 'NOT ASSESSED' as Verdict, observed: 'not run' },
    ];
    return `\n## ${item.title} (${item.id})\n\nThresholds: ${item.thresholds}\n\n${judgementTable(judged)}\n`;
  });
  const verdictOf = (id: string): Verdict =>
    worst((run.items.find((i) => i.id === id)?.judgements ?? []).map((j) => j.verdict));
  const summary = check.items.map((item) => {
    const judged = run.items.find((i) => i.id === item.id)?.judgements ?? [];
    const notOk = judged.filter((j) => j.verdict !== 'OK').map((j) => `${j.subject}: ${j.verdict}`);
    return `| ${cell(item.title)} | **${verdictOf(item.id)}** | ${cell(notOk.join('; ') || `${judged.length} OK`)} |`;
  });
  const all = run.items.flatMap((i) => i.judgements.map((j) => j.verdict));
  const counts = VERDICTS.map((v) => `${v} ${all.filter((x) => x === v).length}`).join(', ');
  return {
    head: `# ${check.title}: ${host}\n\nDate: ${at.toISOString().slice(0, 16).replace('T', ' ')} UTC. Target: \`${host}\`, every node of its cluster. Items: ${check.items.length}.\n\n${SUMMARY_HEADING}\n\n${SUMMARY_NOTE}\n`,
    sections,
    summary: `\n| Item | Verdict | Not OK |\n|---|---|---|\n${summary.join('\n')}\n\nRows: ${counts}.\n`,
  };
}
