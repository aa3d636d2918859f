/**
 * Markdown section arithmetic for the report write modes. A section starts at an ATX heading line
 * (`#` to `######`) outside fenced code blocks and runs to the next heading of the same or a higher level.
 *
 * Every function here runs on the thread that serves all clients, over reports of up to REPORT_MAX_BYTES
 * written by a client: each is one pass over the text, character by character, with no regular expression
 * that can backtrack (the heading pattern this replaces took 90 s on one 8 KB line) and no list of every
 * heading held at once.
 */
export interface Heading {
  level: number;
  text: string;
  /** Character offset of the heading line's start. */
  offset: number;
}

const FENCE = /^\s{0,3}(`{3,}|~{3,})/;
const HASH = 0x23;
const BACKTICK = 0x60;
const TILDE = 0x7e;

/** The headings in document order, one line at a time. */
export function* headingsOf(markdown: string): Generator<Heading> {
  let fence: string | null = null;
  let offset = 0;
  for (;;) {
    const nl = markdown.indexOf('\n', offset);
    const end = nl < 0 ? markdown.length : nl;
    // Only a line whose first character after up to three spaces is #, ` or ~ can matter: every other
    // line is passed over without being copied.
    let i = offset;
    while (i < end && i - offset < 3 && isSpaceCode(markdown.charCodeAt(i))) i++;
    const first = markdown.charCodeAt(i);
    if (i < end && (first === HASH || first === BACKTICK || first === TILDE)) {
      const line = markdown.slice(offset, end);
      const f = first === HASH ? null : FENCE.exec(line);
      if (f) {
        const marker = (f[1] as string)[0] as string;
        if (fence === null) fence = marker;
        else if (fence === marker) fence = null;
      } else if (fence === null && first === HASH) {
        const h = headingLine(line);
        if (h) yield { ...h, offset };
      }
    }
    if (nl < 0) return;
    offset = nl + 1;
  }
}

export function headings(markdown: string): Heading[] {
  return [...headingsOf(markdown)];
}

/**
 * An ATX heading line: up to three spaces, one to six `#`, at least one space, the text, and an optional
 * closing run of `#` with the spaces around it. Scanned by hand: the same lines as the pattern
 * /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/ (a test holds the two together), in linear time.
 */
function headingLine(line: string): { level: number; text: string } | null {
  let i = 0;
  while (i < 3 && i < line.length && isSpaceCode(line.charCodeAt(i))) i++;
  const hashes = i;
  while (i < line.length && line.charCodeAt(i) === HASH) i++;
  const level = i - hashes;
  if (level < 1 || level > 6 || i >= line.length || !isSpaceCode(line.charCodeAt(i))) return null;
  let end = line.length;
  while (end > i && isSpaceCode(line.charCodeAt(end - 1))) end--;
  while (end > i && line.charCodeAt(end - 1) === HASH) end--;
  while (end > i && isSpaceCode(line.charCodeAt(end - 1))) end--;
  const text = line.slice(i, end).trim();
  // `.` in the pattern stops at these: a heading's text never holds one.
  if (/[\r\u2028\u2029]/.test(text)) return null;
  return { level, text };
}

/** What `\s` matches: ECMAScript white space and line terminators. */
function isSpaceCode(c: number): boolean {
  if (c === 0x20 || (c >= 0x09 && c <= 0x0d)) return true;
  if (c < 0xa0) return false;
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** Normalises a heading reference: "## Findings" and "Findings" both name the heading "Findings". */
export function headingText(ref: string): string {
  return ref.replace(/^\s*#{1,6}\s+/, '').trim();
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
  const first = headingsOf(content).next().value as Heading | undefined;
  if (!first) return { text: joinBlocks(current, content), replacedFrom: null };
  let existing: Heading | undefined;
  for (const h of headingsOf(current)) {
    if (h.text === first.text && h.level === first.level) {
      existing = h;
      break;
    }
  }
  if (!existing) return { text: joinBlocks(current, content), replacedFrom: null };
  return { text: joinBlocks(current.slice(0, existing.offset), content), replacedFrom: first.text };
}

/** insert_after: the content goes right after the section the anchor heading starts; null if absent. */
export function insertAfter(current: string, anchor: string, content: string): string | null {
  const target = headingText(anchor);
  let start: Heading | undefined;
  let end = current.length;
  for (const h of headingsOf(current)) {
    if (!start) {
      if (h.text === target) start = h;
    } else if (h.level <= start.level) {
      end = h.offset;
      break;
    }
  }
  if (!start) return null;
  const before = current.slice(0, end);
  const after = current.slice(end);
  const inserted = joinBlocks(before, content.endsWith('\n') ? content : `${content}\n`);
  return `${inserted}${after}`;
}

/** Longest heading text quoted back in a write's answer; a longer one ends with "…". */
export const QUOTED_HEADING_CHARS = 200;

/** A heading's text as a write's answer quotes it: cut at QUOTED_HEADING_CHARS. */
export function quoteHeadingText(text: string): string {
  return text.length > QUOTED_HEADING_CHARS ? `${text.slice(0, QUOTED_HEADING_CHARS - 1)}…` : text;
}

function quoteHeading(h: Heading): string {
  return `${'#'.repeat(h.level)} ${quoteHeadingText(h.text)}`;
}

/**
 * The outline a write answers with: the first `max` headings, how many there are, the last. Bounded
 * whatever the report holds, so the answer to one write stays small.
 */
export function outline(
  markdown: string,
  max: number,
): { listed: string[]; total: number; last: string | null } {
  const listed: string[] = [];
  let total = 0;
  let lastHeading: Heading | undefined;
  for (const h of headingsOf(markdown)) {
    if (total < max) listed.push(quoteHeading(h));
    lastHeading = h;
    total++;
  }
  return { listed, total, last: lastHeading ? quoteHeading(lastHeading) : null };
}
