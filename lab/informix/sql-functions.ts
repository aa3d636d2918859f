// The scalar functions of the subset, named and behaving as in the Informix Guide to SQL: Syntax
// ("Expression": string functions, length functions, NVL). Unknown names and wrong argument counts answer
// -674 as Informix does when no routine matches.
import type { Cell } from './database.ts';
import { DbError } from './database.ts';
import { toNumber } from './sql-values.ts';

interface Scalar {
  min: number;
  max: number;
  /** Called with the evaluated arguments; most functions give NULL for a NULL argument before this. */
  fn: (args: Cell[]) => Cell;
  keepsNulls?: boolean;
}

const text = (args: Cell[], i: number): string => args[i] as string;

function substr(source: string, start: number, length: number | undefined): string {
  const chars = [...source];
  let from = start > 0 ? start - 1 : start < 0 ? Math.max(chars.length + start, 0) : 0;
  if (from > chars.length) from = chars.length;
  if (length === undefined) return chars.slice(from).join('');
  if (length < 0) throw new DbError(-201, 'A syntax error has occurred.');
  return chars.slice(from, from + length).join('');
}

/** SQL SUBSTRING: positions before 1 still count towards the length. */
function substring(source: string, start: number, length: number | undefined): string {
  const chars = [...source];
  const from = Math.max(start, 1);
  const to = length === undefined ? chars.length + 1 : start + length;
  if (length !== undefined && length < 0) throw new DbError(-201, 'A syntax error has occurred.');
  return to <= from ? '' : chars.slice(from - 1, to - 1).join('');
}

function integer(value: Cell): number {
  const n = toNumber(value) as number;
  return Math.trunc(n);
}

export function trimChars(source: string, side: 'leading' | 'trailing' | 'both', chars: string): string {
  const set = new Set(chars === '' ? [' '] : [...chars]);
  const list = [...source];
  let start = 0;
  let end = list.length;
  if (side !== 'trailing') while (start < end && set.has(list[start] as string)) start++;
  if (side !== 'leading') while (end > start && set.has(list[end - 1] as string)) end--;
  return list.slice(start, end).join('');
}

const SCALARS: Record<string, Scalar> = {
  upper: { min: 1, max: 1, fn: (a) => text(a, 0).toUpperCase() },
  lower: { min: 1, max: 1, fn: (a) => text(a, 0).toLowerCase() },
  // LENGTH counts bytes without trailing blanks; CHAR_LENGTH counts characters.
  length: { min: 1, max: 1, fn: (a) => String(Buffer.byteLength(text(a, 0).replace(/ +$/, ''))) },
  char_length: { min: 1, max: 1, fn: (a) => String([...text(a, 0)].length) },
  character_length: { min: 1, max: 1, fn: (a) => String([...text(a, 0)].length) },
  octet_length: { min: 1, max: 1, fn: (a) => String(Buffer.byteLength(text(a, 0))) },
  substr: {
    min: 2,
    max: 3,
    fn: (a) => substr(text(a, 0), integer(a[1] ?? null), a.length > 2 ? integer(a[2] ?? null) : undefined),
  },
  substring: {
    min: 2,
    max: 3,
    fn: (a) => substring(text(a, 0), integer(a[1] ?? null), a.length > 2 ? integer(a[2] ?? null) : undefined),
  },
  ltrim: { min: 1, max: 2, fn: (a) => trimChars(text(a, 0), 'leading', a[1] ?? ' ') },
  rtrim: { min: 1, max: 2, fn: (a) => trimChars(text(a, 0), 'trailing', a[1] ?? ' ') },
  concat: { min: 2, max: 2, fn: (a) => text(a, 0) + text(a, 1) },
  replace: {
    min: 2,
    max: 3,
    fn: (a) =>
      text(a, 0)
        .split(text(a, 1))
        .join(a[2] ?? ''),
  },
  nvl: { min: 2, max: 2, keepsNulls: true, fn: (a) => a[0] ?? a[1] ?? null },
};

export const AGGREGATES = new Set(['count', 'min', 'max', 'sum', 'avg']);

export function routineNotFound(name: string): DbError {
  return new DbError(-674, `Routine (${name}) can not be resolved.`);
}

/** The function `name` taking `arity` arguments, or -674. */
export function scalarFunction(name: string, arity: number): (args: Cell[]) => Cell {
  const scalar = Object.hasOwn(SCALARS, name) ? SCALARS[name] : undefined;
  if (!scalar || arity < scalar.min || arity > scalar.max) throw routineNotFound(name);
  if (scalar.keepsNulls) return scalar.fn;
  return (args) => (args.some((a) => a === null) ? null : scalar.fn(args));
}
