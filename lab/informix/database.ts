import { randomUUID } from 'node:crypto';

/** Informix hands every value to AXL clients as text; the lab stores it that way (booleans 't'/'f'). */
export type Cell = string | null;
export type Row = Record<string, Cell>;

export interface ForeignKey {
  table: string;
  /** What deleting the referenced row does here: CUCM cascades device maps and refuses the rest. */
  onDelete?: 'cascade' | 'restrict' | 'null';
}

export interface TableSchema {
  name: string;
  /** Column names in the order `SELECT *` returns them; `pkid` first. */
  columns: readonly string[];
  unique?: readonly (readonly string[])[];
  references?: Readonly<Record<string, ForeignKey>>;
  defaults?: Readonly<Record<string, string>>;
  /** Type tables (typemodel, typeservice...) are read-only, as on a real node. */
  readOnly?: boolean;
}

/** An Informix error as AXL reports it: the negative SQL code and its message. */
export class DbError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

const key = (values: readonly Cell[]): string =>
  values.map((v) => (v ?? '\u0000').toLowerCase()).join('\u0001');

function indexRow(index: Map<Cell, Row[]>, value: Cell, row: Row): void {
  const list = index.get(value);
  if (list) list.push(row);
  else index.set(value, [row]);
}

function unindexRow(index: Map<Cell, Row[]>, value: Cell, row: Row): void {
  const list = index.get(value);
  const i = list?.indexOf(row) ?? -1;
  if (list && i !== -1) list.splice(i, 1);
}

export class Table {
  private readonly list: Row[] = [];
  private readonly byId = new Map<string, Row>();
  private readonly uniques: { columns: readonly string[]; index: Map<string, Row> }[];
  /** Exact-value indexes built on first lookup (foreign keys mostly), kept in step with every write. */
  private readonly lookups = new Map<string, Map<Cell, Row[]>>();

  constructor(readonly schema: TableSchema) {
    this.uniques = (schema.unique ?? []).map((columns) => ({ columns, index: new Map<string, Row>() }));
  }

  get name(): string {
    return this.schema.name;
  }

  /** The rows in insertion order. Change them only through the Database, which keeps indexes right. */
  get rows(): readonly Readonly<Row>[] {
    return this.list;
  }

  get size(): number {
    return this.list.length;
  }

  hasColumn(column: string): boolean {
    return this.schema.columns.includes(column);
  }

  byPkid(pkid: string | null | undefined): Row | undefined {
    return pkid ? this.byId.get(pkid.toLowerCase()) : undefined;
  }

  /** A row by the value of a column; unique columns answer from their index, case-insensitively. */
  findBy(column: string, value: string): Row | undefined {
    if (column === 'pkid') return this.byPkid(value);
    const unique = this.uniques.find((u) => u.columns.length === 1 && u.columns[0] === column);
    if (unique) return unique.index.get(key([value]));
    const lower = value.toLowerCase();
    return this.list.find((r) => r[column]?.toLowerCase() === lower);
  }

  /** A row by several columns at once (a composite unique key such as a line's pattern and partition). */
  findByColumns(values: Row): Row | undefined {
    const columns = Object.keys(values);
    const unique = this.uniques.find(
      (u) => u.columns.length === columns.length && columns.every((c) => u.columns.includes(c)),
    );
    if (unique) return unique.index.get(key(unique.columns.map((c) => values[c] ?? null)));
    return this.list.find((r) =>
      columns.every((c) => (r[c] ?? null)?.toLowerCase() === (values[c] ?? null)?.toLowerCase()),
    );
  }

  filter(predicate: (row: Readonly<Row>) => boolean): Row[] {
    return this.list.filter(predicate);
  }

  /** Rows whose `column` equals `value` exactly (a device's line appearances, a CSS's members). */
  lookup(column: string, value: Cell | undefined): readonly Row[] {
    let index = this.lookups.get(column);
    if (!index) {
      index = new Map();
      for (const row of this.list) indexRow(index, row[column] ?? null, row);
      this.lookups.set(column, index);
    }
    return index.get(value ?? null) ?? [];
  }

  /** @internal used by Database */
  add(row: Row): void {
    for (const u of this.uniques) {
      const k = key(u.columns.map((c) => row[c] ?? null));
      if (u.index.has(k)) {
        throw new DbError(
          -239,
          `Could not insert new row - duplicate value in a UNIQUE INDEX column (Unique Index:${this.name}_${u.columns.join('_')}).`,
        );
      }
    }
    // NULL takes part in the key: a line pattern may exist once in the <None> partition too.
    for (const u of this.uniques) u.index.set(key(u.columns.map((c) => row[c] ?? null)), row);
    this.list.push(row);
    if (typeof row.pkid === 'string') this.byId.set(row.pkid.toLowerCase(), row);
    for (const [column, index] of this.lookups) indexRow(index, row[column] ?? null, row);
  }

  /** @internal used by Database */
  change(row: Row, changes: Row): void {
    const next = { ...row, ...changes };
    for (const u of this.uniques) {
      if (!u.columns.some((c) => c in changes)) continue;
      const existing = u.index.get(key(u.columns.map((c) => next[c] ?? null)));
      if (existing && existing !== row) {
        throw new DbError(
          -239,
          `Could not update row - duplicate value in a UNIQUE INDEX column (Unique Index:${this.name}_${u.columns.join('_')}).`,
        );
      }
    }
    for (const u of this.uniques) {
      if (!u.columns.some((c) => c in changes)) continue;
      u.index.delete(key(u.columns.map((c) => row[c] ?? null)));
    }
    for (const [column, index] of this.lookups)
      if (column in changes) unindexRow(index, row[column] ?? null, row);
    Object.assign(row, changes);
    for (const [column, index] of this.lookups)
      if (column in changes) indexRow(index, row[column] ?? null, row);
    for (const u of this.uniques) {
      if (!u.columns.some((c) => c in changes)) continue;
      u.index.set(key(u.columns.map((c) => row[c] ?? null)), row);
    }
  }

  /** @internal used by Database */
  drop(row: Row): void {
    const i = this.list.indexOf(row);
    if (i === -1) return;
    this.list.splice(i, 1);
    if (typeof row.pkid === 'string') this.byId.delete(row.pkid.toLowerCase());
    for (const [column, index] of this.lookups) unindexRow(index, row[column] ?? null, row);
    for (const u of this.uniques) {
      const k = key(u.columns.map((c) => row[c] ?? null));
      if (u.index.get(k) === row) u.index.delete(k);
    }
  }
}

/**
 * An in-memory Informix-like database: the one store behind AXL objects, `executeSQLQuery`/`executeSQLUpdate`
 * and the CLI's `run sql`, so that a write through one interface is visible through the others.
 */
export class Database {
  private readonly tables = new Map<string, Table>();
  /** For each table, the (table, column) pairs that reference it. */
  private readonly referrers = new Map<string, { table: string; column: string; fk: ForeignKey }[]>();

  /** `pkids` makes new rows' pkids (a seeded source makes a scaled lab the same from run to run). */
  constructor(
    schemas: readonly TableSchema[],
    private readonly pkids: () => string = Database.newPkid,
  ) {
    for (const schema of schemas) this.tables.set(schema.name, new Table(schema));
    for (const schema of schemas) {
      for (const [column, fk] of Object.entries(schema.references ?? {})) {
        const list = this.referrers.get(fk.table) ?? [];
        list.push({ table: schema.name, column, fk });
        this.referrers.set(fk.table, list);
      }
    }
  }

  static newPkid(): string {
    return randomUUID();
  }

  hasTable(name: string): boolean {
    return this.tables.has(name.toLowerCase());
  }

  tableNames(): string[] {
    return [...this.tables.keys()];
  }

  table(name: string): Table {
    const table = this.tables.get(name.toLowerCase());
    if (!table) throw new DbError(-206, `The specified table (${name}) is not in the database.`);
    return table;
  }

  insert(tableName: string, values: Record<string, Cell | undefined>): Row {
    const table = this.table(tableName);
    const row: Row = {};
    for (const column of table.schema.columns) row[column] = table.schema.defaults?.[column] ?? null;
    for (const [column, value] of Object.entries(values)) {
      if (value === undefined) continue;
      if (!table.hasColumn(column)) throw unknownColumn(column);
      row[column] = value;
    }
    if (table.hasColumn('pkid')) row.pkid = (row.pkid ?? this.pkids()).toLowerCase();
    this.checkReferences(table, row, Object.keys(row));
    table.add(row);
    return row;
  }

  update(tableName: string, row: Row, changes: Record<string, Cell | undefined>): void {
    const table = this.table(tableName);
    const clean: Row = {};
    for (const [column, value] of Object.entries(changes)) {
      if (value === undefined) continue;
      if (!table.hasColumn(column)) throw unknownColumn(column);
      if (column === 'pkid') throw new DbError(-9999, 'The pkid of a row cannot be changed.');
      clean[column] = value;
    }
    this.checkReferences(table, { ...row, ...clean }, Object.keys(clean));
    table.change(row, clean);
  }

  /** Deletes a row, cascading or refusing per the referencing foreign keys. Returns the rows removed. */
  delete(tableName: string, row: Row): number {
    const table = this.table(tableName);
    let removed = 0;
    for (const ref of this.referrers.get(table.name) ?? []) {
      const referencing = [...this.table(ref.table).lookup(ref.column, row.pkid ?? null)];
      if (referencing.length === 0) continue;
      const mode = ref.fk.onDelete ?? 'restrict';
      if (mode === 'restrict') {
        throw new DbError(
          -692,
          `Key value for constraint (${ref.table}.${ref.column}) is still being referenced.`,
        );
      }
      for (const r of referencing) {
        if (mode === 'cascade') removed += this.delete(ref.table, r);
        else this.table(ref.table).change(r, { [ref.column]: null });
      }
    }
    table.drop(row);
    return removed + 1;
  }

  private checkReferences(table: Table, row: Row, columns: string[]): void {
    for (const column of columns) {
      const fk = table.schema.references?.[column];
      const value = row[column];
      if (!fk || value === null || value === undefined) continue;
      if (!this.table(fk.table).byPkid(value)) {
        throw new DbError(
          -691,
          `Missing key in referenced table for referential constraint (${table.name}.${column}).`,
        );
      }
    }
  }
}

export function unknownColumn(column: string): DbError {
  return new DbError(-217, `Column (${column}) not found in any table in the query (or SLV is undefined).`);
}
