import type { Cell, Row, Table } from './database.ts';
import { DbError, unknownColumn } from './database.ts';

/** One row of a join: a slot per table of the FROM clause, null where an outer join found no match. */
export type JoinedRow = (Readonly<Row> | null)[];

/** What an expression is evaluated against: the current row, its group, and the enclosing query's env. */
export interface Env {
  row: JoinedRow;
  group?: readonly JoinedRow[];
  outer?: Env;
}

export type ValueFn = (env: Env) => Cell;
/** Three-valued: null is SQL's UNKNOWN. */
export type CondFn = (env: Env) => boolean | null;

export interface Source {
  /** The name columns are qualified with: the alias, else the table name. */
  binding: string;
  table: string;
  columns: readonly string[];
  /** The base table when there is one, for index lookups. */
  base?: Table;
  rows(): readonly Readonly<Row>[];
}

export interface ResolvedColumn {
  /** 0 for the query's own tables, 1 for the enclosing query's, and so on. */
  depth: number;
  index: number;
  column: string;
}

// Bounds of one statement, subqueries included: the lab answers in one thread, so a cross join of two large
// tables or a correlated subquery that rescans one per outer row must stop with an error, not stall the node.
// Informix's own answer when a query outgrows its memory is -208.
export const MAX_JOINED_ROWS = 2_000_000;
export const MAX_ROW_VISITS = 50_000_000;

export function queryTooLarge(): DbError {
  return new DbError(-208, 'Memory allocation failed during query processing.');
}

/** The tables one SELECT can see, chained to the enclosing query's for correlated subqueries. */
export class Scope {
  /** Rows read so far by the whole statement (shared with every subquery). */
  readonly work: { visits: number };

  /** Sources of this scope referenced while it is set: the planner reads it per WHERE conjunct. */
  recorder: Set<number> | null = null;
  /** Whether anything compiled in this scope read a column of an enclosing query. */
  correlated = false;

  constructor(
    readonly sources: readonly Source[],
    readonly parent?: Scope,
  ) {
    this.work = parent?.work ?? { visits: 0 };
  }

  /** Counts rows read or produced; past the bound the statement fails with -208. */
  charge(rows: number): void {
    this.work.visits += rows;
    if (this.work.visits > MAX_ROW_VISITS) throw queryTooLarge();
  }

  resolve(qualifier: string | undefined, name: string): ResolvedColumn {
    const chain: Scope[] = [];
    const scopes: Scope[] = [];
    for (let scope: Scope | undefined = this.parent; scope; scope = scope.parent) scopes.push(scope);
    for (const scope of [this as Scope, ...scopes]) {
      const index = scope.find(qualifier, name);
      if (index !== undefined) {
        for (const inner of chain) inner.correlated = true;
        scope.recorder?.add(index);
        return { depth: chain.length, index, column: name };
      }
      chain.push(scope);
    }
    throw qualifier === undefined
      ? unknownColumn(name)
      : new DbError(
          -217,
          `Column (${qualifier}.${name}) not found in any table in the query (or SLV is undefined).`,
        );
  }

  private find(qualifier: string | undefined, name: string): number | undefined {
    if (qualifier !== undefined) {
      const index = this.sources.findIndex((s) => s.binding === qualifier);
      const byTable = index === -1 ? this.sources.findIndex((s) => s.table === qualifier) : index;
      if (byTable === -1) return undefined;
      if (!(this.sources[byTable] as Source).columns.includes(name)) throw unknownColumn(name);
      return byTable;
    }
    let found: number | undefined;
    this.sources.forEach((s, i) => {
      if (!s.columns.includes(name)) return;
      if (found !== undefined) throw new DbError(-324, `Ambiguous column (${name}).`);
      found = i;
    });
    return found;
  }
}

export function readColumn(c: ResolvedColumn): ValueFn {
  const { depth, index, column } = c;
  if (depth === 0) return (env) => env.row[index]?.[column] ?? null;
  return (env) => {
    let e: Env | undefined = env;
    for (let d = 0; d < depth && e; d++) e = e.outer;
    return e?.row[index]?.[column] ?? null;
  };
}
