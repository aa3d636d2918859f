// The one table bench/all.ts prints (and writes into README.md between its markers): each figure with
// what was measured, its baseline measured in the same run, the ratio (min/median/max over the repeats
// where there are repeats), the goal and whether it is met.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { format, resolveConfig } from 'prettier';
import { PROJECT_ROOT } from '../../kernel/paths.ts';

export interface Figure {
  figure: string;
  measured: string;
  baseline: string;
  ratio: string;
  goal: string;
  met: boolean;
}

const HEAD = ['Figure', 'measured', 'bare/baseline', 'ratio min/median/max', 'goal', 'met?'];

function cells(f: Figure): string[] {
  return [f.figure, f.measured, f.baseline, f.ratio, f.goal, f.met ? 'yes' : 'no'];
}

export function markdownTable(figures: Figure[]): string {
  const rows = [HEAD, ...figures.map(cells)];
  const widths = HEAD.map((_, i) => Math.max(...rows.map((r) => (r[i] as string).length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i] as number)).join(' | ')} |`;
  const rule = `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`;
  return [line(HEAD), rule, ...figures.map((f) => line(cells(f)))].join('\n');
}

export const README_BEGIN = '<!-- bench:begin -->';
export const README_END = '<!-- bench:end -->';

/** Replaces what is between the README's bench markers (the markers stay), formatted as the repo formats it. */
export async function writeReadme(markdown: string): Promise<void> {
  const file = join(PROJECT_ROOT, 'README.md');
  const text = readFileSync(file, 'utf8');
  const start = text.indexOf(README_BEGIN);
  const end = text.indexOf(README_END);
  if (start < 0 || end < start) throw new Error(`README.md has no ${README_BEGIN} ... ${README_END} markers`);
  const next = `${text.slice(0, start + README_BEGIN.length)}\n\n${markdown}\n\n${text.slice(end)}`;
  writeFileSync(file, await format(next, { ...(await resolveConfig(file)), filepath: file }));
}
