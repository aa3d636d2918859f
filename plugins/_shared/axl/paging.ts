// Paged reads that stay within an agent's context: list operations by skip/first, executeSQLQuery in
// keyset chunks by pkid (or SKIP/FIRST when the statement cannot be rewritten) when the node says the
// answer is too large, and a byte budget that cuts an answer with a cursor to the rest instead of
// truncating it silently. Offset pages are checked against the rows the previous page ended with
// (shift-guard.ts): a change between pages is followed, or reported as incomplete, never skipped over.
import { BadRequestError } from '../../../kernel/sdk/index.ts';
import type { AxlClient } from './axl-client.ts';
import { AxlFaultError } from './axl-client.ts';
import { keysetPlan, SAFE_KEY, type KeysetPlan } from './keyset-sql.ts';
import type { Json } from './schema.ts';
import { advance, cursorAfter, readAfter, type Cursor, type FetchRows, type Page } from './shift-guard.ts';

export type { Cursor, Incomplete, Page } from './shift-guard.ts';

/** 256 KiB of JSON: about a quarter of a large agent context, leaving room for the rest of the turn. */
export const DEFAULT_BUDGET_BYTES = 256 * 1024;

function asArray(v: Json | undefined): Json[] {
  if (v === undefined || v === null || v === '') return [];
  return Array.isArray(v) ? v : [v];
}

/** The rows of a list answer `{ return: { phone: [...] } }`, whatever the element name. */
function listItems(answer: Json): Json[] {
  const ret = (answer as { return?: Json } | null)?.return;
  if (ret === undefined || ret === null || typeof ret !== 'object' || Array.isArray(ret)) return [];
  const keys = Object.keys(ret).filter((k) => !k.startsWith('$'));
  return keys.length === 1 ? asArray(ret[keys[0] as string]) : [];
}

function listFetch(
  client: AxlClient,
  operation: string,
  searchCriteria: Record<string, Json>,
  returnedTags: Record<string, Json>,
): FetchRows {
  return async (skip, first) =>
    listItems(
      await client.call(operation, {
        searchCriteria,
        returnedTags,
        skip: String(skip),
        first: String(first),
      }),
    );
}

/**
 * One page of a list operation, from `skip` or from a cursor. A node may ignore `first` (seen on CUCM 15
 * `listLine`): a longer answer is cut to `first` and the cursor still points past what was returned.
 */
export async function listPage(
  client: AxlClient,
  operation: string,
  searchCriteria: Record<string, Json>,
  returnedTags: Record<string, Json>,
  from: number | Cursor,
  first: number,
): Promise<Page> {
  if (!operation.startsWith('list')) throw new BadRequestError(`${operation} is not a list operation`);
  const cursor = typeof from === 'number' ? { skip: from } : from;
  if (!Number.isInteger(cursor.skip) || cursor.skip < 0 || !Number.isInteger(first) || first < 1)
    throw new BadRequestError('skip must be an integer >= 0 and first an integer >= 1');
  const read = await readAfter(listFetch(client, operation, searchCriteria, returnedTags), cursor, first);
  const items = read.placed.map((p) => p.row);
  if (read.incomplete) return { items, incomplete: read.incomplete };
  return read.more ? { items, cursor: cursorAfter(cursor, read, items.length) } : { items };
}

/**
 * Every row of a list operation from `cursor`, page by page, until done or the byte budget is spent;
 * then the answer carries a cursor to the rest.
 */
export async function listAll(
  client: AxlClient,
  operation: string,
  searchCriteria: Record<string, Json>,
  returnedTags: Record<string, Json>,
  options: { pageSize?: number; budgetBytes?: number; cursor?: Cursor } = {},
): Promise<Page> {
  if (!operation.startsWith('list')) throw new BadRequestError(`${operation} is not a list operation`);
  const out = new Budgeted(options.budgetBytes ?? DEFAULT_BUDGET_BYTES);
  const fetch = listFetch(client, operation, searchCriteria, returnedTags);
  // The overlap with the previous page comes on top of a page until the node says a page is too large.
  return readOffsetPages(fetch, options.cursor ?? { skip: 0 }, options.pageSize ?? 500, out, true);
}

/**
 * Offset pages from `start` until done, the budget is spent, or the rows moved beyond following. A page
 * over the node's answer limit is asked again at the node's suggested size (with a margin), which then
 * also bounds the overlap with the previous page; `overlapOnTop` lets the overlap come on top of a page
 * until then.
 */
async function readOffsetPages(
  fetch: FetchRows,
  start: Cursor,
  size: number,
  out: Budgeted,
  overlapOnTop: boolean,
): Promise<Page> {
  let cursor = start;
  let window = overlapOnTop ? Number.POSITIVE_INFINITY : size;
  for (;;) {
    let read;
    try {
      read = await readAfter(fetch, cursor, size, window);
    } catch (err) {
      const suggested = tooLarge(err);
      if (suggested === undefined || size === 1) throw err;
      size = Math.max(1, Math.min(size - 1, suggested));
      window = size;
      continue;
    }
    const taken = out.take(read.placed.map((p) => p.row));
    if (read.incomplete) return { items: out.items, incomplete: read.incomplete };
    if (taken < read.placed.length) return { items: out.items, cursor: cursorAfter(cursor, read, taken) };
    if (!read.more) return { items: out.items };
    const next = advance(cursor, read, taken);
    if ('code' in next) return { items: out.items, incomplete: next };
    cursor = next;
  }
}

/** Accumulates rows while their JSON fits the budget; always takes at least one row so paging progresses. */
class Budgeted {
  readonly items: Json[] = [];
  private bytes = 2;

  constructor(private readonly budget: number) {}

  take(rows: Json[]): number {
    let n = 0;
    for (const row of rows) {
      const size = Buffer.byteLength(JSON.stringify(row)) + 1;
      if (this.items.length > 0 && this.bytes + size > this.budget) return n;
      this.items.push(row);
      this.bytes += size;
      n++;
    }
    return n;
  }
}

const TOO_LARGE = /Query request too large.*Suggested row fetch: less than (\d+) rows/is;
const PLAIN_SELECT = /^\s*select\s+(?!skip\b|first\b|limit\b)/i;

/** `SELECT ...` → `SELECT SKIP n FIRST m ...`, only for a plain SELECT that does not page itself. */
export function pagedSql(sql: string, skip: number, first: number): string {
  if (!PLAIN_SELECT.test(sql))
    throw new BadRequestError('only a plain SELECT without SKIP/FIRST can be paged');
  return sql.replace(/^\s*select\s+/i, `SELECT SKIP ${skip} FIRST ${first} `);
}

export interface SqlOptions {
  budgetBytes?: number;
  /** Continue a previous answer's cursor (the same SQL). */
  cursor?: Cursor;
  /** Rows per chunk when paging; by default taken from the node's "Suggested row fetch". */
  chunkRows?: number;
}

function tooLarge(err: unknown): number | undefined {
  const m = err instanceof AxlFaultError ? TOO_LARGE.exec(err.axlMessage) : null;
  // "less than M rows": M - 1 fits, and a margin keeps a chunk of wider rows under the node's limit.
  return m ? Math.max(1, Math.floor((Number(m[1]) - 1) * 0.9)) : undefined;
}

/**
 * executeSQLQuery, read whole when the node allows it; on "Query request too large" a plain SELECT is
 * read in chunks of the suggested size until done or the budget is spent: a one-table SELECT in keyset
 * chunks by pkid (and then in pkid order from the start), any other in SKIP/FIRST chunks whose
 * boundaries are checked for rows that moved.
 */
export async function sqlQuery(client: AxlClient, sql: string, options: SqlOptions = {}): Promise<Page> {
  const plan = PLAIN_SELECT.test(sql) ? keysetPlan(sql) : undefined;
  if (options.cursor?.after !== undefined) {
    if (!plan) throw new BadRequestError('this cursor belongs to another statement');
    return keysetQuery(client, plan, options);
  }
  if (plan && !options.cursor) {
    try {
      return await keysetQuery(client, plan, options);
    } catch (err) {
      // A table without pkid (or a dialect the rewrite got wrong): the caller's own statement decides.
      if (!(err instanceof AxlFaultError) || tooLarge(err) !== undefined) throw err;
    }
  }
  return offsetQuery(client, sql, options);
}

async function keysetQuery(client: AxlClient, plan: KeysetPlan, options: SqlOptions): Promise<Page> {
  const out = new Budgeted(options.budgetBytes ?? DEFAULT_BUDGET_BYTES);
  let after = options.cursor?.after;
  let chunk = options.chunkRows;
  for (;;) {
    let rows: Json[];
    try {
      rows = sqlRows(await client.call('executeSQLQuery', { sql: plan.sql(after, chunk) }));
    } catch (err) {
      const suggested = tooLarge(err);
      if (suggested === undefined || chunk === 1) throw err;
      chunk = Math.min(suggested, chunk === undefined ? suggested : chunk - 1);
      continue;
    }
    const keys = rows.map((r) => keyOf(r, plan));
    const shown = plan.strip ? rows.map(withoutKey) : rows;
    const taken = out.take(shown);
    if (taken < rows.length)
      return { items: out.items, cursor: { skip: 0, after: keys[taken - 1] as string } };
    if (chunk === undefined || rows.length < chunk) return { items: out.items };
    after = keys[rows.length - 1] as string;
  }
}

function keyOf(row: Json, plan: KeysetPlan): string {
  const v = row !== null && typeof row === 'object' && !Array.isArray(row) ? row[plan.key] : undefined;
  if (typeof v !== 'string' || !SAFE_KEY.test(v))
    throw new BadRequestError('a row has no usable pkid, so the statement cannot be paged by key');
  return v;
}

function withoutKey(row: Json): Json {
  if (row === null || typeof row !== 'object' || Array.isArray(row)) return row;
  const { pkid: _pkid, ...rest } = row;
  return rest;
}

async function offsetQuery(client: AxlClient, sql: string, options: SqlOptions): Promise<Page> {
  const out = new Budgeted(options.budgetBytes ?? DEFAULT_BUDGET_BYTES);
  const cursor: Cursor = options.cursor ?? { skip: 0 };
  let chunk = options.chunkRows;
  if (!options.cursor && chunk === undefined) {
    try {
      const rows = sqlRows(await client.call('executeSQLQuery', { sql }));
      const taken = out.take(rows);
      if (taken === rows.length) return { items: out.items };
      const read = { placed: rows.map((row, i) => ({ row, next: i + 1 })), more: true, next: 0 };
      return { items: out.items, cursor: cursorAfter(cursor, read, taken) };
    } catch (err) {
      chunk = tooLarge(err);
      if (chunk === undefined || !PLAIN_SELECT.test(sql)) throw err;
    }
  }
  const fetch: FetchRows = async (skip, first) =>
    sqlRows(await client.call('executeSQLQuery', { sql: pagedSql(sql, skip, first) }));
  return readOffsetPages(fetch, cursor, chunk ?? 1000, out, false);
}

function sqlRows(answer: Json): Json[] {
  const ret = (answer as { return?: Json } | null)?.return;
  if (ret === undefined || ret === null || typeof ret !== 'object' || Array.isArray(ret)) return [];
  return asArray((ret as { row?: Json }).row);
}
