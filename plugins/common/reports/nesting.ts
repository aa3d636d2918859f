/**
 * How deeply a Markdown text nests block quotes and lists, estimated from each line's leading container
 * markers, in one pass. The renderer descends once per level (recursively, re-reading the nested text), so
 * a few KB of `>>>>...` overflow its stack and a few hundred KB of ever deeper list items cost it
 * quadratic time; no report needs more than a few levels.
 *
 * The estimate is an upper bound on what a line can open: every `>` and list marker in front of its text,
 * plus one level per two columns of indentation (the least a nested list item is indented by). Lines in
 * fenced code blocks open nothing. It stops counting at `limit + 1`.
 */
export function nestingDepth(markdown: string, limit: number): number {
  let deepest = 0;
  let fence: string | null = null;
  let offset = 0;
  while (offset <= markdown.length) {
    const nl = markdown.indexOf('\n', offset);
    const end = nl < 0 ? markdown.length : nl;
    const f = fenceMarker(markdown, offset, end);
    if (f !== null) {
      if (fence === null) fence = f;
      else if (fence === f) fence = null;
    } else if (fence === null) {
      deepest = Math.max(deepest, lineDepth(markdown, offset, end, limit));
      if (deepest > limit) return deepest;
    }
    offset = end + 1;
  }
  return deepest;
}

function lineDepth(s: string, start: number, end: number, limit: number): number {
  let markers = 0;
  let columns = 0;
  let i = start;
  while (i < end && markers + Math.floor(columns / 2) <= limit) {
    const c = s[i] as string;
    if (c === ' ') {
      columns++;
      i++;
    } else if (c === '\t') {
      columns += 4;
      i++;
    } else if (c === '>') {
      markers++;
      i = afterMarker(s, i + 1, end);
    } else if ((c === '-' || c === '*' || c === '+') && isGap(s, i + 1, end)) {
      markers++;
      i = afterMarker(s, i + 1, end);
    } else if (c >= '0' && c <= '9') {
      let j = i;
      while (j < end && j - i < 9 && (s[j] as string) >= '0' && (s[j] as string) <= '9') j++;
      if ((s[j] === '.' || s[j] === ')') && isGap(s, j + 1, end)) {
        markers++;
        i = afterMarker(s, j + 1, end);
      } else break;
    } else break;
  }
  return markers + Math.floor(columns / 2);
}

/** The one space or tab that ends a marker belongs to it, not to the indentation. */
function afterMarker(s: string, i: number, end: number): number {
  return i < end && (s[i] === ' ' || s[i] === '\t') ? i + 1 : i;
}

/** A list marker is followed by a space, a tab or the end of the line. */
function isGap(s: string, i: number, end: number): boolean {
  return i >= end || s[i] === ' ' || s[i] === '\t';
}

/** "`" or "~" when the line opens or closes a fence (three or more, up to three spaces in). */
function fenceMarker(s: string, start: number, end: number): string | null {
  let i = start;
  while (i < end && i - start < 3 && s[i] === ' ') i++;
  const c = s[i];
  if (c !== '`' && c !== '~') return null;
  let n = 0;
  while (i + n < end && s[i + n] === c) n++;
  return n >= 3 ? c : null;
}
