// Text that came from a caller or a plugin (an AXL operation, a CLI command, a CUPI path, RIS criteria,
// an SQL statement) on its way into an audit record: bounded, and unable to forge or hide a line when
// the log is read in a terminal or a viewer.

/** Longest text of one such field, the marker of a cut included. */
export const AUDIT_TEXT_MAX = 256;

/**
 * Control characters (C0, DEL, C1: newlines, ANSI escape sequences), line and paragraph separators
 * (U+2028, U+2029), format characters (bidirectional overrides, zero-width ones) and lone surrogates.
 */
const UNSAFE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;

/**
 * `text` with every unsafe character written as a visible `\uXXXX` escape, cut to `max` characters with
 * a marker giving the original length. Only what can be kept is scanned: a 10 MB input costs no more
 * than a short one.
 */
export function auditText(text: string, max = AUDIT_TEXT_MAX): string {
  const head = text.length > max ? text.slice(0, max) : text;
  const escaped = head.replace(UNSAFE, (c) => `\\u${hex(c)}`);
  if (escaped.length <= max && head.length === text.length) return escaped;
  const marker = `…[${text.length} chars]`;
  let cut = escaped.slice(0, Math.max(0, max - marker.length));
  // Never end inside an escape or between the halves of a surrogate pair.
  cut = cut.replace(/\\(u(\{[0-9A-F]*|[0-9A-F]{0,3}))?$/, '').replace(/[\uD800-\uDBFF]$/, '');
  return cut + marker;
}

function hex(c: string): string {
  const code = c.codePointAt(0) ?? 0;
  return code > 0xffff
    ? `{${code.toString(16).toUpperCase()}}`
    : code.toString(16).toUpperCase().padStart(4, '0');
}
