import type { Cell } from './database.ts';
import { DbError } from './database.ts';

const NUMERIC = /^-?(\d+(\.\d*)?|\.\d+)$/;

export function isNumeric(value: string): boolean {
  // Most cells are names and uuids: a first character that cannot start a number settles it cheaply.
  const c = value.charCodeAt(0);
  if (!((c >= 48 && c <= 57) || c === 45 || c === 46)) return false;
  return NUMERIC.test(value);
}

/** Numbers compare as numbers, everything else as text; NULL sorts first. */
export function compareCells(a: Cell, b: Cell): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  if (isNumeric(a) && isNumeric(b)) return Number(a) - Number(b);
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A key equal for exactly the values `compareCells` calls equal, for hash joins, DISTINCT and GROUP BY. */
export function cellKey(value: Cell): string {
  if (value === null) return '\u0000';
  // Text is its own key (no copy to hash); numbers get a prefix no text from the database starts with.
  return isNumeric(value) ? `\u0001${Number(value)}` : value;
}

/** LIKE with `%` and `_` (and MATCHES' `*` and `?`), anchored, case-sensitive as Informix is. */
export function likeToRegExp(pattern: string): RegExp {
  let re = '';
  for (const ch of pattern) {
    if (ch === '%' || ch === '*') re += '.*';
    else if (ch === '_' || ch === '?') re += '.';
    else re += ch.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return new RegExp(`^${re}$`, 's');
}

/** Informix converts text to a number for arithmetic and fails with -1213 where it cannot. */
export function toNumber(value: Cell): number | null {
  if (value === null) return null;
  const text = value.trim();
  if (!isNumeric(text)) throw new DbError(-1213, 'A character to numeric conversion process failed.');
  return Number(text);
}

export function fromNumber(value: number): string {
  if (!Number.isFinite(value)) throw new DbError(-1215, 'Value exceeds limit of INTEGER precision.');
  return Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(15)));
}
