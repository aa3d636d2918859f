/**
 * Markdown section arithmetic for the report write modes. A section starts at an ATX heading line
 * (`#` to `######`) outside fenced code blocks and runs to the next heading of the same or a higher level.
 */
export interface Heading {
  level: number;
  text: string;
  /** Character offset of the heading line's start. */
  offset: number;
}

export function headings(markdown: string): Heading[] {
  const out: Heading[] = [];
  let fence: string | null = null;
  let offset = 0;
  for (const line of markdown.split('\n')) {
    const f = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (f) {
      const marker = (f[1] as string)[0] as string;
      if (fence === null) fence = marker;
      else if (fence === marker) fence = null;
    } else if (fence === null) {
      const h = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
      if (h) out.push({ level: (h[1] as string).length, text: (h[2] as string).trim(), offset });
    }
    offset += line.length + 1;
  }
  return out;
}

/** Normalises a heading reference: "## Findings" and "Findings" both name the heading "Findings". */
export function headingText(ref: string): string {
  return ref.replace(/^\s*#{1,6}\s+/, '').trim();
}

/** Where the section that starts at `h` ends (the next heading of the same or a higher level, or the end). */
export function sectionEnd(markdown: string, all: Heading[], h: Heading): number {
  const next = all.find((x) => x.offset > h.offset && x.level <= h.level);
  return next ? next.offset : markdown.length;
}

/** Joins two pieces so that the second starts on its own line. */
export function joinBlocks(a: string, b: string): string {
  if (a.length === 0) return b;
  return a.endsWith('\n') ? `${a}${b}` : `${a}\n${b}`;
}

/**
 * resume: the content's first heading names the section being written. If the report already has it
 * (an interrupted write being retried), everything from that heading to the end is replaced; otherwise
 * the content is appended. Re-sending a section therefore never duplicates it.
 */
export function resumeInto(current: string, content: string): { text: string; replacedFrom: string | null } {
  const first = headings(content)[0];
  if (!first) return { text: joinBlocks(current, content), replacedFrom: null };
  const existing = headings(current).find((h) => h.text === first.text && h.level === first.level);
  if (!existing) return { text: joinBlocks(current, content), replacedFrom: null };
  return { text: joinBlocks(current.slice(0, existing.offset), content), replacedFrom: first.text };
}

/** insert_after: the content goes right after the section the anchor heading starts; null if absent. */
export function insertAfter(current: string, anchor: string, content: string): string | null {
  const all = headings(current);
  const target = headingText(anchor);
  const h = all.find((x) => x.text === target);
  if (!h) return null;
  const end = sectionEnd(current, all, h);
  const before = current.slice(0, end);
  const after = current.slice(end);
  const inserted = joinBlocks(before, content.endsWith('\n') ? content : `${content}\n`);
  return `${inserted}${after}`;
}
