// The security-guide chapters (`<product>://security-guide/{chapter}`), the project's own summary of
// each control area, rendered from the same checklist the audit prompt uses.
import { NotFoundError } from '../../../kernel/sdk/index.ts';
import type { Checklist } from './checklist.ts';

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
      '',
    );
  }
  return out.join('\n');
}
