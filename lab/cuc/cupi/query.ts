import type { CupiObject } from './store.ts';
import { CupiError } from './store.ts';

/** CUPI field names are case-insensitive in queries: `alias` finds `Alias`. */
export function fieldOf(obj: CupiObject, name: string): string | undefined {
  const lower = name.toLowerCase();
  const key = Object.keys(obj).find((k) => k.toLowerCase() === lower);
  return key === undefined ? undefined : obj[key];
}

/** `(alias startswith ab)`, `(alias is jsmith)`, `(dtmfaccessid isnull)`. */
export function queryFilter(query: string | null): (obj: CupiObject) => boolean {
  if (query === null || query.trim() === '') return () => true;
  const m = /^\(\s*([A-Za-z][\w]*)\s+(is|startswith|isnull|isnotnull)(?:\s+(.*?))?\s*\)$/i.exec(query.trim());
  if (!m) throw new CupiError(400, 'INVALID_PARAMETER', `Invalid query: ${query}`);
  const field = m[1] as string;
  const op = (m[2] as string).toLowerCase();
  const value = (m[3] ?? '').replace(/^'(.*)'$/, '$1').toLowerCase();
  if ((op === 'is' || op === 'startswith') && value === '')
    throw new CupiError(400, 'INVALID_PARAMETER', `Invalid query: ${query}`);
  return (obj) => {
    const v = fieldOf(obj, field);
    switch (op) {
      case 'is':
        return v !== undefined && v.toLowerCase() === value;
      case 'startswith':
        return v !== undefined && v.toLowerCase().startsWith(value);
      case 'isnull':
        return v === undefined || v === '';
      default:
        return v !== undefined && v !== '';
    }
  };
}

/** `(alias asc)` or `(alias desc)`. */
export function sorter(sort: string | null): ((a: CupiObject, b: CupiObject) => number) | undefined {
  if (sort === null || sort.trim() === '') return undefined;
  const m = /^\(\s*([A-Za-z][\w]*)\s+(asc|desc)\s*\)$/i.exec(sort.trim());
  if (!m) throw new CupiError(400, 'INVALID_PARAMETER', `Invalid sort: ${sort}`);
  const field = m[1] as string;
  const sign = (m[2] as string).toLowerCase() === 'desc' ? -1 : 1;
  return (a, b) =>
    sign * (fieldOf(a, field) ?? '').localeCompare(fieldOf(b, field) ?? '', 'en', { sensitivity: 'base' });
}

/**
 * Most objects one CUPI page holds: a larger rowsPerPage is served as this many, never more. 2,000 is
 * the ceiling the product's cuc_cupi_list has always kept to; no public Cisco source found states the
 * exact figure or whether a node clamps or refuses (the CUPI guide's userlicenses page only gives 2001
 * as that resource's default page size), so the lab clamps, the lenient reading, and the client never
 * relies on getting more than it asked for.
 */
export const MAX_ROWS_PER_PAGE = 2000;

export function pageOf<T>(items: T[], rowsPerPage: string | null, pageNumber: string | null): T[] {
  if (rowsPerPage === null) return items;
  const asked = Number(rowsPerPage);
  const rows = Number.isInteger(asked) ? Math.min(asked, MAX_ROWS_PER_PAGE) : asked;
  const page = pageNumber === null ? 1 : Number(pageNumber);
  if (!Number.isInteger(rows) || rows < 0 || !Number.isInteger(page) || page < 1) {
    throw new CupiError(400, 'INVALID_PARAMETER', 'rowsPerPage and pageNumber must be positive integers');
  }
  return items.slice((page - 1) * rows, page * rows);
}
