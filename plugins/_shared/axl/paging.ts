// Paged reads that stay within an agent's context: list operations by skip/first, executeSQLQuery by
// Informix SKIP/FIRST when the node says the answer is too large, and a byte budget that cuts an answer
// with a cursor to the rest instead of truncating it silently.
import { BadRequestError } from '../../../kernel/sdk/index.ts';
import type { AxlClient } from './axl-client.ts';
import { AxlFaultError } from './axl-client.ts';
import type { Json } from './schema.ts';

/** Where the next page starts; absent when the answer is complete. */
export interface Cursor {
  skip: number;
}

export interface Page {
  items: Json[];
  cursor?: Cursor;
}

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

/**
 * One page of a list operation. A node may ignore `first` (seen on CUCM 15 `listLine`): a longer
 * answer is cut to `first` and the cursor still points past what was returned.
 */
export async function listPage(
  client: AxlClient,
  operation: string,
  searchCriteria: Record<string, Json>,
  returnedTags: Record<string, Json>,
  skip: number,
  first: number,
): Promise<Page> {
  if (!operation.startsWith('list')) throw new BadRequestError(`${operation} is not a list operation`);
  if (!Number.isInteger(skip) || skip < 0 || !Number.isInteger(first) || first < 1)
    throw new BadRequestError('skip must be an integer >= 0 and first an integer >= 1');
  const answer = await client.call(operation, {
    searchCriteria,
    returnedTags,
    skip: String(skip),
    first: String(first),
  });
  const items = listItems(answer);
  if (items.length >= first) return { items: items.slice(0, first), cursor: { skip: skip + first } };
  return { items };
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
  let pageSize = options.pageSize ?? 500;
  const budget = options.budgetBytes ?? DEFAULT_BUDGET_BYTES;
  const out = new Budgeted(budget);
  let skip = options.cursor?.skip ?? 0;
  for (;;) {
    let page: Page;
    try {
      page = await listPage(client, operation, searchCriteria, returnedTags, skip, pageSize);
    } catch (err) {
      // A page over the node's answer limit: take the node's suggestion (with a margin) and ask again.
      const m = err instanceof AxlFaultError ? TOO_LARGE.exec(err.axlMessage) : null;
      if (!m || pageSize === 1) throw err;
      pageSize = Math.max(1, Math.min(pageSize - 1, Math.floor((Number(m[1]) - 1) * 0.9)));
      continue;
    }
    const taken = out.take(page.items);
    if (taken < page.items.length) return { items: out.items, cursor: { skip: skip + taken } };
    if (!page.cursor) return { items: out.items };
    skip = page.cursor.skip;
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

/**
 * executeSQLQuery, read whole when the node allows it; on "Query request too large" the plain SELECT
 * is rewritten to SKIP/FIRST chunks of the suggested size and read until done or the budget is spent.
 * Rows are paged without ORDER BY only when the caller gave none: Informix then keeps table order.
 */
export async function sqlQuery(client: AxlClient, sql: string, options: SqlOptions = {}): Promise<Page> {
  const out = new Budgeted(options.budgetBytes ?? DEFAULT_BUDGET_BYTES);
  let skip = options.cursor?.skip ?? 0;
  let chunk = options.chunkRows;
  if (skip === 0 && chunk === undefined) {
    try {
      const rows = sqlRows(await client.call('executeSQLQuery', { sql }));
      const taken = out.take(rows);
      return taken < rows.length ? { items: out.items, cursor: { skip: taken } } : { items: out.items };
    } catch (err) {
      const m = err instanceof AxlFaultError ? TOO_LARGE.exec(err.axlMessage) : null;
      if (!m || !PLAIN_SELECT.test(sql)) throw err;
      // "less than M rows": M - 1 fits, and a margin keeps a chunk of wider rows under the node's limit.
      chunk = Math.max(1, Math.floor((Number(m[1]) - 1) * 0.9));
    }
  }
  chunk ??= 1000;
  for (;;) {
    let rows: Json[];
    try {
      rows = sqlRows(await client.call('executeSQLQuery', { sql: pagedSql(sql, skip, chunk) }));
    } catch (err) {
      const m = err instanceof AxlFaultError ? TOO_LARGE.exec(err.axlMessage) : null;
      if (!m || chunk === 1) throw err;
      chunk = Math.max(1, Math.min(chunk - 1, Math.floor((Number(m[1]) - 1) * 0.9)));
      continue;
    }
    const taken = out.take(rows);
    if (taken < rows.length) return { items: out.items, cursor: { skip: skip + taken } };
    if (rows.length < chunk) return { items: out.items };
    skip += chunk;
  }
}

function sqlRows(answer: Json): Json[] {
  const ret = (answer as { return?: Json } | null)?.return;
  if (ret === undefined || ret === null || typeof ret !== 'object' || Array.isArray(ret)) return [];
  return asArray((ret as { row?: Json }).row);
}
