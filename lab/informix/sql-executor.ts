import type { Cell, Database, Row, Table } from './database.ts';
import { DbError, unknownColumn } from './database.ts';
import type { ColumnName, Condition, SelectStatement, Statement } from './sql-ast.ts';
import { parseSql } from './sql-parser.ts';

export interface QueryResult {
  /** Lowercase column names, as AXL names the `<row>` children. */
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
  return select(db, stmt);
}

/** Runs an INSERT, UPDATE or DELETE of the subset. */
export function runUpdate(db: Database, sql: string): SqlWrite {
  const stmt = parseSql(sql);
  if (stmt.kind === 'select')
    throw new DbError(-9999, 'executeSQLUpdate does not accept SELECT statements; use executeSQLQuery.');
  return write(db, stmt);
}

function select(db: Database, stmt: SelectStatement): QueryResult {
  const table = db.table(stmt.table);
  const resolve = resolver(table, stmt.alias);
  const match = stmt.where ? compile(stmt.where, resolve) : () => true;
  let rows = table.rows.filter(match);
  for (const { column } of stmt.orderBy) resolve(column);
  if (stmt.orderBy.length > 0) {
    const keys = stmt.orderBy.map((o) => ({ column: resolve(o.column), sign: o.descending ? -1 : 1 }));
    rows = [...rows].sort((a, b) => {
      for (const k of keys) {
        const c = compareCells(a[k.column] ?? null, b[k.column] ?? null);
        if (c !== 0) return c * k.sign;
      }
      return 0;
    });
  }
  if (stmt.items.some((i) => i.kind === 'count')) {
    if (stmt.items.length !== 1) throw new DbError(-294, 'The column (count) must be in the GROUP BY list.');
    const item = stmt.items[0];
    return {
      columns: [item?.kind === 'count' && item.alias ? item.alias : 'count'],
      rows: [[String(rows.length)]],
    };
  }
  const columns: { source: string; label: string }[] = [];
  for (const item of stmt.items) {
    if (item.kind === 'all') for (const c of table.schema.columns) columns.push({ source: c, label: c });
    else if (item.kind === 'column')
      columns.push({ source: resolve(item.column), label: item.alias ?? item.column.name });
  }
  let out = rows.map((r) => columns.map((c) => r[c.source] ?? null));
  if (stmt.distinct) {
    const seen = new Set<string>();
    out = out.filter((r) => {
      const k = JSON.stringify(r);
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
  }
  const skip = stmt.skip ?? 0;
  out = out.slice(skip, stmt.first === undefined ? undefined : skip + stmt.first);
  return { columns: columns.map((c) => c.label), rows: out };
}

function write(db: Database, stmt: Exclude<Statement, SelectStatement>): SqlWrite {
  const table = db.table(stmt.table);
  if (table.schema.readOnly) throw new DbError(-273, `No UPDATE permission for ${table.name}.`);
  if (stmt.kind === 'insert') {
    const values: Record<string, Cell> = {};
    stmt.columns.forEach((c, i) => {
      if (!table.hasColumn(c)) throw unknownColumn(c);
      values[c] = stmt.values[i] ?? null;
    });
    db.insert(table.name, values);
    return { kind: 'insert', table: table.name, rowsUpdated: 1 };
  }
  const resolve = resolver(table, undefined);
  const match = stmt.where ? compile(stmt.where, resolve) : () => true;
  const targets = table.rows.filter(match) as Row[];
  if (stmt.kind === 'update') {
    const changes: Record<string, Cell> = {};
    for (const s of stmt.set) {
      if (!table.hasColumn(s.column)) throw unknownColumn(s.column);
      changes[s.column] = s.value;
    }
    for (const row of targets) db.update(table.name, row, changes);
    return { kind: 'update', table: table.name, rowsUpdated: targets.length };
  }
  for (const row of targets) db.delete(table.name, row);
  return { kind: 'delete', table: table.name, rowsUpdated: targets.length };
}

function resolver(table: Table, alias: string | undefined): (c: ColumnName) => string {
  return (c) => {
    if (c.qualifier !== undefined && c.qualifier !== table.name && c.qualifier !== alias) {
      throw new DbError(
        -217,
        `Column (${c.qualifier}.${c.name}) not found in any table in the query (or SLV is undefined).`,
      );
    }
    if (!table.hasColumn(c.name)) throw unknownColumn(c.name);
    return c.name;
  };
}

function compile(cond: Condition, resolve: (c: ColumnName) => string): (row: Readonly<Row>) => boolean {
  switch (cond.kind) {
    case 'and': {
      const l = compile(cond.left, resolve);
      const r = compile(cond.right, resolve);
      return (row) => l(row) && r(row);
    }
    case 'or': {
      const l = compile(cond.left, resolve);
      const r = compile(cond.right, resolve);
      return (row) => l(row) || r(row);
    }
    case 'not': {
      const inner = compile(cond.condition, resolve);
      return (row) => !inner(row);
    }
    case 'null': {
      const column = resolve(cond.column);
      return (row) => ((row[column] ?? null) === null) !== cond.negated;
    }
    case 'like': {
      const column = resolve(cond.column);
      const re = likeToRegExp(cond.pattern);
      return (row) => {
        const v = row[column];
        return v !== null && v !== undefined && re.test(v) !== cond.negated;
      };
    }
    case 'in': {
      const column = resolve(cond.column);
      return (row) => {
        const v = row[column] ?? null;
        return v !== null && cond.values.some((x) => x !== null && compareCells(v, x) === 0) !== cond.negated;
      };
    }
    case 'compare': {
      const column = resolve(cond.column);
      const want = cond.value;
      return (row) => {
        const v = row[column] ?? null;
        // SQL three-valued logic: a comparison with NULL is never true.
        if (v === null || want === null) return false;
        const c = compareCells(v, want);
        switch (cond.op) {
          case '=':
            return c === 0;
          case '<>':
            return c !== 0;
          case '<':
            return c < 0;
          case '>':
            return c > 0;
          case '<=':
            return c <= 0;
          default:
            return c >= 0;
        }
      };
    }
  }
}

/** Numbers compare as numbers, everything else as text; NULL sorts first. */
export function compareCells(a: Cell, b: Cell): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  if (/^-?\d+(\.\d+)?$/.test(a) && /^-?\d+(\.\d+)?$/.test(b)) return Number(a) - Number(b);
  return a < b ? -1 : a > b ? 1 : 0;
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
