// The security-guide chapters (`<product>://security-guide/{chapter}`), the project's own summary of
// each control area, rendered from the same checklist the audit prompt uses.
import { NotFoundError } from '../../../kernel/sdk/index.ts';
import type { Check, Checklist } from './checklist.ts';
import { verificationText } from './citations.ts';

export function guideMembers(checklist: Checklist): { name: string; title: string; description: string }[] {
  return checklist.topics.map((t) => ({
    name: t.id,
    title: t.title,
    description: `${checklist.checks.filter((c) => c.topic === t.id).length} controls`,
  }));
}

export function renderGuideChapter(checklist: Checklist, chapter: string): string {
  const topic = checklist.topics.find((t) => t.id === chapter);
  if (!topic)
    throw new NotFoundError(
      `no chapter ${chapter.slice(0, 64)}; chapters: ${checklist.topics.map((t) => t.id).join(', ')}`,
    );
  const out = [`# ${topic.title}`, '', topic.summary, ''];
  for (const c of checklist.checks.filter((x) => x.topic === topic.id)) {
    out.push(
      `## ${c.id}: ${c.title}`,
      '',
      c.rationale,
      '',
      `- **How it is verified:** ${c.evidence.map((e) => `\`${e.tool}\` (${e.purpose})`).join('; ')}`,
      `- **A finding when:** ${c.condition}`,
      `- **Severity:** ${c.severity}`,
      `- **Remediation:** ${c.remediation}`,
      ...referenceBullets(c),
      ...(c.benchmarks?.length ? [`- **Benchmarks:** ${c.benchmarks.join(', ')}`] : []),
      `- **Verification:** ${verificationText(c)}`,
      '',
    );
  }
  return out.join('\n');
}

/** Each source with the evidence names it confirms, so a reader can check every name against it. */
function referenceBullets(c: Check): string[] {
  const refs = c.references ?? [];
  if (refs.length === 0) return ['- **References:** none cited'];
  return [
    '- **References:**',
    ...refs.map(
      (r) =>
        `  - ${r.document} (${r.release}), ${r.section}: ${r.url}${r.confirms?.length ? ` (confirms ${r.confirms.map((n) => `\`${n}\``).join(', ')})` : ''}`,
    ),
  ];
}
