/** The statements of the lab's Informix SQL subset (see lab/README.md). */
export type Statement = SelectStatement | InsertStatement | UpdateStatement | DeleteStatement;

export interface ColumnName {
  /** Table name or alias the column was qualified with, if any. */
  qualifier?: string;
  name: string;
}

export type CompareOp = '=' | '<>' | '<' | '>' | '<=' | '>=';

/** Values and conditions share one tree: a condition is an expression evaluated three-valued. */
export type Expr =
  | { kind: 'literal'; value: string | null }
  | ({ kind: 'column' } & ColumnName)
  | { kind: 'binary'; op: '+' | '-' | '*' | '/' | '||'; left: Expr; right: Expr }
  | { kind: 'negate'; operand: Expr }
  | { kind: 'call'; name: string; args: Expr[]; distinct?: boolean; star?: boolean }
  | { kind: 'trim'; side: 'leading' | 'trailing' | 'both'; chars?: Expr; operand: Expr }
  | { kind: 'case'; operand?: Expr; whens: { when: Expr; then: Expr }[]; otherwise?: Expr }
  | { kind: 'subquery'; select: SelectStatement }
  | { kind: 'and' | 'or'; left: Expr; right: Expr }
  | { kind: 'not'; operand: Expr }
  | { kind: 'compare'; op: CompareOp; left: Expr; right: Expr }
  | { kind: 'like'; operand: Expr; pattern: Expr; negated: boolean }
  | { kind: 'isnull'; operand: Expr; negated: boolean }
  | { kind: 'in'; operand: Expr; list: Expr[] | SelectStatement; negated: boolean }
  | { kind: 'between'; operand: Expr; low: Expr; high: Expr; negated: boolean }
  | { kind: 'exists'; select: SelectStatement; negated: boolean };

export type SelectItem = { kind: 'all'; qualifier?: string } | { kind: 'expr'; expr: Expr; alias?: string };

export interface TableRef {
  table: string;
  alias?: string;
}

/**
 * One table of the FROM clause and how it joins the tables before it: `first` opens the list, `inner` is a
 * comma, CROSS or INNER JOIN, `left` an ANSI LEFT [OUTER] JOIN, `outer` Informix's `, OUTER t` (its join
 * conditions are in WHERE).
 */
export interface FromSource extends TableRef {
  join: 'first' | 'inner' | 'left' | 'outer';
  on?: Expr;
}

export interface OrderItem {
  expr: Expr;
  descending: boolean;
}

export interface SelectStatement {
  kind: 'select';
  skip?: number;
  first?: number;
  distinct: boolean;
  items: SelectItem[];
  from: FromSource[];
  where?: Expr;
  groupBy: Expr[];
  having?: Expr;
  orderBy: OrderItem[];
}

export interface InsertStatement {
  kind: 'insert';
  table: string;
  columns: string[];
  values: Expr[];
}

export interface UpdateStatement {
  kind: 'update';
  table: string;
  set: { column: string; value: Expr }[];
  where?: Expr;
}

export interface DeleteStatement {
  kind: 'delete';
  table: string;
  where?: Expr;
}
