/**
 * One record as one line, for every reader's idea of a line. JSON.stringify already escapes the C0
 * controls (\n, \r, \v, \f, the 0x1C-0x1E separators) and lone surrogates, but leaves U+2028, U+2029,
 * U+0085 (NEL) and the rest of Unicode raw: JavaScript readers before ES2019 and many log shippers break
 * a line on the first two, Python's splitlines() on NEL, and a shipper decoding the file as Latin-1 or
 * Windows-1252 sees a NEL in the UTF-8 bytes of ordinary letters (0x85 is a continuation byte of "Å",
 * "…"...). So every character outside printable ASCII is written as a \uXXXX escape: the line is plain
 * ASCII, parses back to exactly the same value, and no convention can split it.
 */
const NOT_PRINTABLE_ASCII = /[^\x20-\x7e]/g;

const escape = (ch: string): string => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * Escapes every UTF-16 unit outside printable ASCII in JSON text. Inside a JSON string the escape means
 * the same character; outside strings compact JSON has only ASCII, so the text stays equivalent JSON.
 */
export function asciiJson(json: string): string {
  return json.replace(NOT_PRINTABLE_ASCII, escape);
}

/** A value as one JSON line (no trailing newline): printable ASCII only. */
export function toJsonLine(value: unknown): string {
  return asciiJson(JSON.stringify(value) ?? 'null');
}
