// A fake AXL client over one ordered table, for the change-safe paging unit tests: listPhone by
// skip/first in table order (the insertion order a node keeps), and the executeSQLQuery shapes the
// paging code sends (whole, SKIP/FIRST, and keyset `pkid > '...' ORDER BY pkid`). Between two calls
// a test hook may change the table, as another administrator would between two pages.
import { AxlFaultError, type AxlClient } from '../../../../plugins/_shared/axl/axl-client.ts';
import type { Json } from '../../../../plugins/_shared/axl/schema.ts';

export interface FakeRow {
  pkid: string;
  name: string;
}

export class FakeAxlTable {
  rows: FakeRow[] = [];
  calls: string[] = [];
  /** Runs before each call from the second on (the first page is read before any change). */
  between: ((call: number) => void) | undefined;
  #n = 0;

  constructor(
    count: number,
    /** Rows a single executeSQLQuery may return before "Query request too large". */
    private readonly sqlLimit = Number.POSITIVE_INFINITY,
  ) {
    for (let i = 0; i < count; i++) this.add(`SEP${String(i).padStart(12, '0')}`);
  }

  /** pkids are not in insertion order, as real UUIDs are not. */
  add(name: string, at = this.rows.length): FakeRow {
    const pkid = hexOf(name);
    const row = { pkid, name };
    this.rows.splice(at, 0, row);
    return row;
  }

  remove(name: string): void {
    this.rows = this.rows.filter((r) => r.name !== name);
  }

  get client(): AxlClient {
    return { call: (op: string, args: Record<string, Json>) => this.#call(op, args) } as unknown as AxlClient;
  }

  #call(op: string, args: Record<string, Json>): Promise<Json> {
    if (this.#n++ > 0) this.between?.(this.#n - 1);
    if (op === 'listPhone') {
      const skip = Number(args.skip ?? 0);
      const first = args.first === undefined ? undefined : Number(args.first);
      const page = this.rows.slice(skip, first === undefined ? undefined : skip + first);
      this.calls.push(`listPhone ${skip} ${first}`);
      return Promise.resolve({
        return: page.length ? { phone: page.map((r) => ({ uuid: `{${r.pkid}}`, name: r.name })) } : '',
      });
    }
    if (op === 'executeSQLQuery') {
      const sql = String(args.sql);
      this.calls.push(sql);
      let rows = [...this.rows];
      const after = /pkid > '([^']+)'/i.exec(sql)?.[1];
      if (/order by (\w+\.)?pkid/i.test(sql)) rows.sort((a, b) => (a.pkid < b.pkid ? -1 : 1));
      if (after !== undefined) rows = rows.filter((r) => r.pkid > after);
      const skip = Number(/\bskip (\d+)/i.exec(sql)?.[1] ?? 0);
      const first = /\bfirst (\d+)/i.exec(sql)?.[1];
      rows = rows.slice(skip, first === undefined ? undefined : skip + Number(first));
      if (rows.length > this.sqlLimit)
        return Promise.reject(
          new AxlFaultError(
            -1,
            `Query request too large. Total rows matched: ${rows.length} rows. Suggested row fetch: less than ${this.sqlLimit + 1} rows`,
            op,
          ),
        );
      const wantsPkid = /select\s+(first \d+\s+|skip \d+\s+)*(\*|.*\bpkid\b)/i.test(sql);
      return Promise.resolve({
        return: rows.length
          ? { row: rows.map((r): Json => (wantsPkid ? { pkid: r.pkid, name: r.name } : { name: r.name })) }
          : '',
      });
    }
    return Promise.reject(new Error(`unexpected ${op}`));
  }
}

function hexOf(name: string): string {
  let h = 0x811c9dc5;
  for (const c of name) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193) >>> 0;
  const x = h.toString(16).padStart(8, '0');
  return `${x}-0000-4000-8000-${name.replace(/\D/g, '').slice(-12).padStart(12, '0')}`;
}
