// How a check's sources read wherever a check is shown (the prompt, the security-guide chapters, the
// report and docs/audits.md): one wording, so an auditor finds the same citation everywhere.
import type { Check } from './checklist.ts';

/**
 * One line per cited URL: `Document (release), section; other section: URL`. A URL cited twice for the
 * same check (several sections of one page) is printed once, which keeps long prompts short.
 */
export function citationLines(c: Pick<Check, 'references'>): string[] {
  const byUrl = new Map<string, Map<string, string[]>>();
  for (const r of c.references ?? []) {
    const docs = byUrl.get(r.url) ?? new Map<string, string[]>();
    byUrl.set(r.url, docs);
    const doc = `${r.document} (${r.release})`;
    const sections = docs.get(doc) ?? [];
    docs.set(doc, sections);
    if (!sections.includes(r.section)) sections.push(r.section);
  }
  return [...byUrl].map(
    ([url, docs]) =>
      `${[...docs].map(([doc, sections]) => `${doc}, ${sections.join('; ')}`).join('; ')}: ${url}`,
  );
}

/** The check's references on one line (`none cited` when it has none). */
export function citationText(c: Check): string {
  const lines = citationLines(c);
  return lines.length > 0 ? lines.join(' | ') : 'none cited';
}

/** `verified`, or `unverified: <reason>` when a name the evidence uses has no public source. */
export function verificationText(c: Check): string {
  return c.unverified ? `unverified: ${c.unverified}` : 'verified';
}
