import type { Cell, Database, Row } from './database.ts';
import { DbError, unknownColumn } from './database.ts';
import type { Expr, Statement } from './sql-ast.ts';
import { isCatalogTable } from './sql-catalog.ts';
import { ExprCompiler } from './sql-compile.ts';
import { parseSql } from './sql-parser.ts';
import type { Env } from './sql-scope.ts';
import { Scope } from './sql-scope.ts';
import { compileSelect, openSource } from './sql-select.ts';

export { compareCells, likeToRegExp } from './sql-values.ts';

export interface QueryResult {
  /** Lowercase column names, as AXL names the `<row>` children (a name may repeat: `d.pkid, n.pkid`). */
  columns: string[];
  rows: Cell[][];
}

export interface SqlWrite {
  kind: 'insert' | 'update' | 'delete';
  table: string;
  rowsUpdated: number;
}

/** Runs a SELECT of the subset. Anything else is refused: executeSQLQuery is for reads. */
export function runQuery(db: Database, sql: string): QueryResult {
  const stmt = parseSql(sql);
  if (stmt.kind !== 'select')
    throw new DbError(-9999, 'executeSQLQuery accepts only SELECT statements; use executeSQLUpdate.');
  const compiled = compileSelect(db, stmt);
  return { columns: compiled.columns, rows: compiled.run() };
}

/** Runs an INSERT, UPDATE or DELETE of the subset. */
export function runUpdate(db: Database, sql: string): SqlWrite {
  const stmt = parseSql(sql);
  if (stmt.kind === 'select')
    throw new DbError(-9999, 'executeSQLUpdate does not accept SELECT statements; use executeSQLQuery.');
  return write(db, stmt);
}

function write(db: Database, stmt: Exclude<Statement, { kind: 'select' }>): SqlWrite {
  if (isCatalogTable(stmt.table) && !db.hasTable(stmt.table))
    throw new DbError(-273, `No UPDATE permission for ${stmt.table.toLowerCase()}.`);
  const table = db.table(stmt.table);
  if (table.schema.readOnly) throw new DbError(-273, `No UPDATE permission for ${table.name}.`);
  const subquery = (scope: Scope) => new ExprCompiler(scope, (sub, parent) => compileSelect(db, sub, parent));
  if (stmt.kind === 'insert') {
    // VALUES may hold expressions and uncorrelated subqueries, never a column of the row being inserted.
    const compiler = subquery(new Scope([]));
    const values: Record<string, Cell> = {};
    const env: Env = { row: [] };
    stmt.columns.forEach((c, i) => {
      if (!table.hasColumn(c)) throw unknownColumn(c);
      values[c] = compiler.value(stmt.values[i] as Expr)(env);
    });
    db.insert(table.name, values);
    return { kind: 'insert', table: table.name, rowsUpdated: 1 };
  }
  const compiler = subquery(new Scope([openSource(db, { table: table.name })]));
  const match = stmt.where ? compiler.cond(stmt.where) : () => true;
  const targets = table.rows.filter((r) => match({ row: [r] }) === true) as Row[];
  if (stmt.kind === 'update') {
    for (const s of stmt.set) {
      if (!table.hasColumn(s.column)) throw unknownColumn(s.column);
    }
    const set = stmt.set.map((s) => ({ column: s.column, value: compiler.value(s.value) }));
    // Every new value is computed before the first write, as one statement sees one state of the table.
    const changes = targets.map((row) => {
      const c: Record<string, Cell> = {};
      for (const s of set) c[s.column] = s.value({ row: [row] });
      return c;
    });
    targets.forEach((row, i) => db.update(table.name, row, changes[i] as Record<string, Cell>));
    return { kind: 'update', table: table.name, rowsUpdated: targets.length };
  }
  for (const row of targets) db.delete(table.name, row);
  return { kind: 'delete', table: table.name, rowsUpdated: targets.length };
}
