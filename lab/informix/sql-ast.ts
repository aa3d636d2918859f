/** The statements of the documented SQL subset (see lab/README.md). */
export type Statement = SelectStatement | InsertStatement | UpdateStatement | DeleteStatement;

export type Literal = string | null;

export interface ColumnName {
  /** Table name or alias the column was qualified with, if any. */
  qualifier?: string;
  name: string;
}

export type SelectItem =
  | { kind: 'all' }
  | { kind: 'column'; column: ColumnName; alias?: string }
  | { kind: 'count'; alias?: string };

export interface SelectStatement {
  kind: 'select';
  skip?: number;
  first?: number;
  distinct: boolean;
  items: SelectItem[];
  table: string;
  alias?: string;
  where?: Condition;
  orderBy: { column: ColumnName; descending: boolean }[];
}

export interface InsertStatement {
  kind: 'insert';
  table: string;
  columns: string[];
  values: Literal[];
}

export interface UpdateStatement {
  kind: 'update';
  table: string;
  set: { column: string; value: Literal }[];
  where?: Condition;
}

export interface DeleteStatement {
  kind: 'delete';
  table: string;
  where?: Condition;
}

export type CompareOp = '=' | '<>' | '<' | '>' | '<=' | '>=';

export type Condition =
  | { kind: 'and' | 'or'; left: Condition; right: Condition }
  | { kind: 'not'; condition: Condition }
  | { kind: 'compare'; column: ColumnName; op: CompareOp; value: Literal }
  | { kind: 'like'; column: ColumnName; pattern: string; negated: boolean }
  | { kind: 'null'; column: ColumnName; negated: boolean }
  | { kind: 'in'; column: ColumnName; values: Literal[]; negated: boolean };
