// Offset paging that notices when the rows moved between two pages. AXL list operations have no
// "after this name" criterion, and a SQL statement that cannot be rewritten to keyset pages only has
// SKIP/FIRST; a row deleted (or inserted) before the cursor between two pages shifts every later row by
// one, so a bare offset skips (or repeats) a row that never changed. The cursor therefore carries
// fingerprints of the last rows returned; the next page re-reads a few rows before the offset, finds the
// last of those rows that still exists, and continues right after it. When none is found the rows moved
// further than the overlap (or were all removed): the read stops with `complete: false` and a coded
// reason instead of guessing.
import { createHash } from 'node:crypto';
import type { Json } from './schema.ts';

/** Rows re-read before the offset: how far the set may shift between two pages and still be followed. */
export const OVERLAP_ROWS = 25;
/** Fingerprints kept in a cursor: anchors to fall back on when the last rows returned were deleted. */
export const TAIL_ROWS = 6;

/** Where the next page starts; absent from a page when the answer is complete. */
export interface Cursor {
  /** Offset of the next row in the order the node returns. */
  skip: number;
  /** Fingerprints of the last rows returned, oldest first. */
  tail?: string[];
  /** Keyset paging: the last key returned. */
  after?: string;
}

/** Why an answer stops short without a cursor. */
export interface Incomplete {
  code: 'ROWS_SHIFTED';
  reason: string;
}

export interface Page {
  items: Json[];
  cursor?: Cursor;
  incomplete?: Incomplete;
}

/** A row's identity: its AXL uuid when it has one (stable across updates), else its whole content. */
export function rowFingerprint(row: Json): string {
  const o = row !== null && typeof row === 'object' && !Array.isArray(row) ? row : undefined;
  const attrs = o?.$ ?? o?.attributes;
  const uuid =
    o?.uuid ??
    o?.['@uuid'] ??
    (attrs && typeof attrs === 'object' && !Array.isArray(attrs) ? attrs.uuid : undefined);
  const identity = typeof uuid === 'string' && uuid !== '' ? `u:${uuid.toLowerCase()}` : JSON.stringify(row);
  return createHash('sha256').update(identity).digest('base64url').slice(0, 12);
}

/** Reads `first` rows from `skip`: the node's own paging. Returns what the node returned (maybe more). */
export type FetchRows = (skip: number, first: number) => Promise<Json[]>;

export interface Placed {
  row: Json;
  /** Offset just after this row in the set as it was when read. */
  next: number;
}

export interface Read {
  placed: Placed[];
  /** The node had more rows than were asked for. */
  more: boolean;
  /** Offset after the last row examined (anchor or rows already returned), when nothing new was placed. */
  next: number;
  incomplete?: Incomplete;
}

export const SHIFTED = (why: string): Incomplete => ({
  code: 'ROWS_SHIFTED',
  reason: `the rows changed between pages (${why}), so this read cannot say that no row was skipped; repeat it without cursor`,
});

/**
 * Up to `count` rows after `cursor`: a plain read when the cursor has no fingerprints (first page, or
 * an offset the caller chose), else a read overlapping the previous page, re-anchored on its last rows.
 */
export async function readAfter(
  fetch: FetchRows,
  cursor: Cursor,
  count: number,
  /** Most rows one fetch may ask for (the node's answer limit): the overlap comes out of it. */
  maxWindow = Number.POSITIVE_INFINITY,
): Promise<Read> {
  const tail = cursor.tail ?? [];
  if (tail.length === 0) {
    const rows = (await fetch(cursor.skip, count)).slice(0, count + 1);
    const page = rows.slice(0, count);
    return {
      placed: page.map((row, i) => ({ row, next: cursor.skip + i + 1 })),
      more: rows.length > count || page.length === count,
      next: cursor.skip,
    };
  }
  const overlap = Math.min(OVERLAP_ROWS, cursor.skip, Math.max(1, Math.floor(maxWindow / 2)));
  const start = cursor.skip - overlap;
  const want = overlap + Math.max(1, Math.min(count, maxWindow - overlap));
  const window = (await fetch(start, want)).slice(0, want);
  const ids = window.map(rowFingerprint);
  // The latest anchor still present, nearest to where it was; rows after it that were already returned
  // (the later anchors) are not returned again.
  for (let t = tail.length - 1; t >= 0; t--) {
    const expected = cursor.skip - (tail.length - t) - start;
    const at = nearest(ids, tail[t] as string, expected);
    if (at < 0) continue;
    const seen = new Set(tail.slice(t + 1));
    const placed: Placed[] = [];
    let next = start + at + 1;
    for (let i = at + 1; i < window.length && placed.length < count; i++) {
      if (seen.has(ids[i] as string)) {
        if (placed.length === 0) next = start + i + 1;
        continue;
      }
      placed.push({ row: window[i] as Json, next: start + i + 1 });
    }
    return { placed, more: window.length === want, next };
  }
  if (window.length === 0 && start === 0) return { placed: [], more: false, next: 0 };
  return {
    placed: [],
    more: false,
    next: cursor.skip,
    incomplete: SHIFTED(
      window.length === 0
        ? 'rows before the cursor were removed'
        : `none of the last ${tail.length} rows returned is within ${overlap} rows of where it was`,
    ),
  };
}

function nearest(ids: string[], id: string, expected: number): number {
  let best = -1;
  for (let i = 0; i < ids.length; i++)
    if (ids[i] === id && (best < 0 || Math.abs(i - expected) < Math.abs(best - expected))) best = i;
  return best;
}

/** The cursor after the first `taken` placed rows of a read (the earlier tail kept as fallback anchors). */
export function cursorAfter(previous: Cursor, read: Read, taken: number): Cursor {
  const rows = read.placed.slice(0, taken);
  const last = rows[rows.length - 1];
  const tail = [...(previous.tail ?? []), ...rows.map((p) => rowFingerprint(p.row))].slice(-TAIL_ROWS);
  return { skip: last ? last.next : Math.max(read.next, previous.skip), tail };
}

/**
 * The cursor for the next round of a read that goes on by itself, or an Incomplete when it would not
 * move forward (rows that keep reappearing ahead of the cursor): never a loop.
 */
export function advance(previous: Cursor, read: Read, taken: number): Cursor | Incomplete {
  const next = cursorAfter(previous, read, taken);
  if (taken === 0 && next.skip <= previous.skip) return SHIFTED('the read made no progress');
  return next;
}
