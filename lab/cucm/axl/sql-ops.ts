import { DbError } from '../../informix/database.ts';
import { runQuery, runUpdate } from '../../informix/sql-executor.ts';
import { childText } from '../../xml/parse.ts';
import type { XmlOutObject } from '../../xml/write.ts';
import { AxlFault, invalidRequest } from './fault.ts';
import type { AxlOperation } from './operation.ts';

/** Informix errors reach the client as AXL faults carrying the negative SQL code, never as a crash. */
function asFault(err: unknown): never {
  if (err instanceof DbError) throw new AxlFault(err.code, err.message);
  throw err;
}

/**
 * One `<row>`: a child per column, named in lowercase. A name selected twice (`d.pkid, n.pkid`) repeats its
 * element, as the AXL schema's open `row` content allows; the repeats come together, in select order.
 */
function rowElement(columns: readonly string[], cells: readonly (string | null)[]): XmlOutObject {
  // No prototype: an alias such as __proto__ stays an ordinary element name.
  const row = Object.create(null) as XmlOutObject;
  columns.forEach((c, i) => {
    const value = cells[i] ?? null;
    const existing = row[c];
    if (existing === undefined) row[c] = value;
    else if (Array.isArray(existing)) existing.push(value);
    else row[c] = [existing, value];
  });
  return row;
}

export const executeSqlQuery: AxlOperation = {
  name: 'executeSQLQuery',
  write: false,
  handle(ctx, req) {
    const sql = childText(req, 'sql');
    if (!sql) throw invalidRequest('executeSQLQuery needs a sql element');
    try {
      const result = runQuery(ctx.db, sql);
      const rows = result.rows.map((cells) => rowElement(result.columns, cells));
      return { body: { return: rows.length > 0 ? { row: rows } : null }, rows: rows.length };
    } catch (err) {
      return asFault(err);
    }
  },
};

export const executeSqlUpdate: AxlOperation = {
  name: 'executeSQLUpdate',
  write: true,
  handle(ctx, req) {
    const sql = childText(req, 'sql');
    if (!sql) throw invalidRequest('executeSQLUpdate needs a sql element');
    try {
      const result = runUpdate(ctx.db, sql);
      ctx.log.write({
        node: ctx.node,
        via: 'sql',
        operation: `executeSQLUpdate ${result.kind}`,
        target: result.table,
      });
      return { body: { return: { rowsUpdated: result.rowsUpdated } } };
    } catch (err) {
      return asFault(err);
    }
  },
};

export function getCcmVersion(version: string): AxlOperation {
  return {
    name: 'getCCMVersion',
    write: false,
    handle: () => ({ body: { return: { componentVersion: { version } } } }),
  };
}
