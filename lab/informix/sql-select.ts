import type { Cell, Database, Row } from './database.ts';
import type { Expr, FromSource, SelectItem, SelectStatement } from './sql-ast.ts';
import { catalogTable } from './sql-catalog.ts';
import type { CompiledSelect } from './sql-compile.ts';
import { ExprCompiler } from './sql-compile.ts';
import { AGGREGATES } from './sql-functions.ts';
import { syntaxError } from './sql-lexer.ts';
import type { CondFn, Env, JoinedRow, Source, ValueFn } from './sql-scope.ts';
import { MAX_JOINED_ROWS, queryTooLarge, readColumn, Scope } from './sql-scope.ts';
import { cellKey, compareCells, isNumeric } from './sql-values.ts';

/** A table of the FROM clause: a base table, or a system catalog table computed now. */
export function openSource(db: Database, ref: { table: string; alias?: string }): Source {
  const binding = ref.alias ?? ref.table;
  const catalog = catalogTable(db, ref.table);
  if (catalog) return { binding, table: ref.table, columns: catalog.columns, rows: () => catalog.rows };
  const base = db.table(ref.table);
  return { binding, table: base.name, columns: base.schema.columns, base, rows: () => base.rows };
}

/** One AND-ed term of WHERE or ON, with the tables of this query it reads. */
interface Conjunct {
  refs: Set<number>;
  cond: CondFn;
  /** For `a = b`: each side's reads and value, so the planner can hash-join or use an index. */
  equality?: { sides: [Set<number>, Set<number>]; values: [ValueFn, ValueFn]; exprs: [Expr, Expr] };
}

interface Step {
  join: FromSource['join'];
  /** Conditions of the join itself: rows failing them are null-extended by an outer join. */
  conds: Conjunct[];
  /** WHERE terms that can only run after an ANSI LEFT JOIN produced its rows. */
  post: Conjunct[];
}

function conjuncts(e: Expr | undefined): Expr[] {
  if (!e) return [];
  if (e.kind === 'and') return [...conjuncts(e.left), ...conjuncts(e.right)];
  return [e];
}

function recording<T>(scope: Scope, compile: () => T): { refs: Set<number>; result: T } {
  const saved = scope.recorder;
  const refs = new Set<number>();
  scope.recorder = refs;
  try {
    return { refs, result: compile() };
  } finally {
    scope.recorder = saved;
    if (saved) for (const r of refs) saved.add(r);
  }
}

function analyse(compiler: ExprCompiler, e: Expr): Conjunct {
  const scope = compiler.scope;
  if (e.kind === 'compare' && e.op === '=') {
    const left = recording(scope, () => compiler.value(e.left));
    const right = recording(scope, () => compiler.value(e.right));
    const l = left.result;
    const r = right.result;
    return {
      refs: new Set([...left.refs, ...right.refs]),
      cond: (env) => {
        const a = l(env);
        const b = r(env);
        return a === null || b === null ? null : compareCells(a, b) === 0;
      },
      equality: { sides: [left.refs, right.refs], values: [l, r], exprs: [e.left, e.right] },
    };
  }
  const { refs, result } = recording(scope, () => compiler.cond(e));
  return { refs, cond: result };
}

const maxRef = (c: Conjunct): number => Math.max(0, ...c.refs);

/** Compiles a SELECT: joins (hash joins on equalities), grouping, projection, ordering and SKIP/FIRST. */
export function compileSelect(db: Database, stmt: SelectStatement, parent?: Scope): CompiledSelect {
  const sources = stmt.from.map((f) => openSource(db, f));
  const scope = new Scope(sources, parent);
  const compiler = new ExprCompiler(scope, (sub, p) => compileSelect(db, sub, p));
  const steps: Step[] = stmt.from.map((f) => ({ join: f.join, conds: [], post: [] }));
  stmt.from.forEach((f, i) => {
    for (const e of conjuncts(f.on)) {
      const c = analyse(compiler, e);
      if (maxRef(c) > i) throw syntaxError();
      (steps[i] as Step).conds.push(c);
    }
  });
  for (const e of conjuncts(stmt.where)) {
    const c = analyse(compiler, e);
    const step = steps[maxRef(c)] as Step;
    // Informix's OUTER takes its join conditions from WHERE; an ANSI LEFT JOIN filters after joining.
    if (step.join === 'left') step.post.push(c);
    else step.conds.push(c);
  }
  const joins = steps.map((s, i) => planStep(s, i, sources, scope));

  const grouped = stmt.groupBy.length > 0 || hasAggregate(stmt);
  const groupBy = stmt.groupBy.map((e) => groupExpression(e, stmt.items, scope));
  const groupKeys = groupBy.map((e) => compiler.value(e));
  if (grouped) compiler.grouped(groupBy);
  const having = stmt.having ? compiler.cond(stmt.having) : undefined;
  if (having && !grouped) throw syntaxError();
  const projection = project(stmt.items, sources, compiler, grouped);
  const order = stmt.orderBy.map((o) => ({
    sign: o.descending ? -1 : 1,
    key: orderKey(o.expr, stmt.items, projection.values, compiler),
  }));

  const run = (outer?: Env): Cell[][] => {
    let rows: JoinedRow[] = [];
    for (const join of joins) rows = join(rows, outer);
    let out: { values: Cell[]; keys: Sortable[] }[] = [];
    const emit = (env: Env): void => {
      if (having && having(env) !== true) return;
      out.push({
        values: projection.values.map((v) => v(env)),
        keys: order.map((o) => sortable(o.key(env))),
      });
    };
    if (grouped) for (const env of groups(rows, groupKeys, sources.length, outer)) emit(env);
    else {
      // One env reused for every row: evaluation is synchronous and nothing keeps a reference to it.
      const env: Env = { row: [], outer };
      for (const row of rows) {
        env.row = row;
        emit(env);
      }
    }
    if (stmt.distinct) {
      const seen = new Set<string>();
      out = out.filter((r) => {
        const k = r.values.map(cellKey).join('\u0001');
        if (seen.has(k)) return false;
        seen.add(k);
        return true;
      });
    }
    if (order.length > 0) {
      out.sort((a, b) => {
        for (let k = 0; k < order.length; k++) {
          const c = compareSortable(a.keys[k] ?? null, b.keys[k] ?? null);
          if (c !== 0) return c * (order[k] as { sign: number }).sign;
        }
        return 0;
      });
    }
    const skip = stmt.skip ?? 0;
    return out.slice(skip, stmt.first === undefined ? undefined : skip + stmt.first).map((r) => r.values);
  };
  return { columns: projection.labels, correlated: scope.correlated, run };
}

/** A sort key converted once, so that sorting compares numbers and strings without parsing them again. */
type Sortable = number | string | null;

function sortable(value: Cell): Sortable {
  return value !== null && isNumeric(value) ? Number(value) : value;
}

/** The order of compareCells: NULL first, numbers as numbers, anything else as text. */
function compareSortable(a: Sortable, b: Sortable): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const x = String(a);
  const y = String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

type JoinFn = (left: JoinedRow[], outer: Env | undefined) => JoinedRow[];

function planStep(step: Step, i: number, sources: readonly Source[], scope: Scope): JoinFn {
  const n = sources.length;
  const source = sources[i] as Source;
  const own: Conjunct[] = [];
  const keys: { left: ValueFn; right: ValueFn }[] = [];
  const residual: Conjunct[] = [];
  const earlier = (refs: Set<number>): boolean => refs.size > 0 && [...refs].every((r) => r < i);
  const only = (refs: Set<number>): boolean => refs.size === 1 && refs.has(i);
  for (const c of step.conds) {
    const eq = c.equality;
    if ([...c.refs].every((r) => r === i)) own.push(c);
    else if (eq && only(eq.sides[0]) && earlier(eq.sides[1]))
      keys.push({ right: eq.values[0], left: eq.values[1] });
    else if (eq && only(eq.sides[1]) && earlier(eq.sides[0]))
      keys.push({ right: eq.values[1], left: eq.values[0] });
    else residual.push(c);
  }
  const lookup = indexLookup(own, i, source);
  const keepUnmatched = step.join === 'left' || step.join === 'outer';

  const candidates = (outer: Env | undefined): readonly Readonly<Row>[] => {
    const scratch: JoinedRow = new Array<Readonly<Row> | null>(n).fill(null);
    const env: Env = { row: scratch, outer };
    const rows = lookup?.(env) ?? source.rows();
    scope.charge(rows.length);
    if (own.length === 0) return rows;
    return rows.filter((r) => {
      scratch[i] = r;
      return own.every((c) => c.cond(env) === true);
    });
  };
  const passes = (row: JoinedRow, outer: Env | undefined): boolean => {
    const env: Env = { row, outer };
    return residual.every((c) => c.cond(env) === true);
  };
  const post = (rows: JoinedRow[], outer: Env | undefined): JoinedRow[] =>
    step.post.length === 0
      ? rows
      : rows.filter((row) => step.post.every((c) => c.cond({ row, outer }) === true));

  if (i === 0) {
    return (_left, outer) => {
      const rows = candidates(outer).map((r) => {
        const row: JoinedRow = new Array<Readonly<Row> | null>(n).fill(null);
        row[0] = r;
        return row;
      });
      return post(residual.length === 0 ? rows : rows.filter((row) => passes(row, outer)), outer);
    };
  }
  return (left, outer) => {
    const right = candidates(outer);
    const out: JoinedRow[] = [];
    const emit = (row: JoinedRow, matches: readonly Readonly<Row>[]): void => {
      let matched = false;
      for (const r of matches) {
        const joined = row.slice();
        joined[i] = r;
        if (residual.length > 0 && !passes(joined, outer)) continue;
        if (out.length >= MAX_JOINED_ROWS) throw queryTooLarge();
        out.push(joined);
        matched = true;
      }
      if (!matched && keepUnmatched) out.push(row.slice());
    };
    if (keys.length === 0) {
      scope.charge(left.length * right.length);
      for (const row of left) emit(row, right);
      return post(out, outer);
    }
    // Hash join: index the (filtered) right side on its key once, then probe it with each left row.
    const table = new Map<string, Readonly<Row>[]>();
    const scratch: JoinedRow = new Array<Readonly<Row> | null>(n).fill(null);
    const scratchEnv: Env = { row: scratch, outer };
    for (const r of right) {
      scratch[i] = r;
      const k = joinKey(keys, 'right', scratchEnv);
      if (k === undefined) continue;
      const list = table.get(k);
      if (list) list.push(r);
      else table.set(k, [r]);
    }
    scope.charge(left.length);
    const probe: Env = { row: [], outer };
    for (const row of left) {
      probe.row = row;
      const k = joinKey(keys, 'left', probe);
      emit(row, k === undefined ? [] : (table.get(k) ?? []));
    }
    return post(out, outer);
  };
}

/** NULL never equals anything, so a key with NULL matches no row. */
function joinKey(
  keys: readonly { left: ValueFn; right: ValueFn }[],
  side: 'left' | 'right',
  env: Env,
): string | undefined {
  if (keys.length === 1) {
    const v = (keys[0] as { left: ValueFn; right: ValueFn })[side](env);
    return v === null ? undefined : cellKey(v);
  }
  let k = '';
  for (const key of keys) {
    const v = key[side](env);
    if (v === null) return undefined;
    k += `${cellKey(v)}\u0001`;
  }
  return k;
}

/**
 * `col = value` on a base table, with value fixed for the scan (a literal or an enclosing query's column):
 * answered from the table's exact-value index. Numbers are left to the scan, where '1' equals '1.0'.
 */
function indexLookup(
  own: Conjunct[],
  i: number,
  source: Source,
): ((env: Env) => readonly Readonly<Row>[] | undefined) | undefined {
  const base = source.base;
  if (!base) return undefined;
  for (const c of own) {
    const eq = c.equality;
    if (!eq) continue;
    for (const side of [0, 1] as const) {
      const column = eq.exprs[side];
      const other = eq.values[side === 0 ? 1 : 0];
      if (column.kind !== 'column' || eq.sides[side === 0 ? 1 : 0].size > 0 || !eq.sides[side].has(i))
        continue;
      const name = column.name;
      return (env) => {
        const v = other(env);
        return v === null || isNumeric(v) ? undefined : base.lookup(name, v);
      };
    }
  }
  return undefined;
}

function groups(rows: JoinedRow[], keys: ValueFn[], n: number, outer: Env | undefined): Env[] {
  if (keys.length === 0) {
    const empty: JoinedRow = new Array<Readonly<Row> | null>(n).fill(null);
    return [{ row: rows[0] ?? empty, group: rows, outer }];
  }
  const byKey = new Map<string, JoinedRow[]>();
  for (const row of rows) {
    const env: Env = { row, outer };
    const k = keys.map((key) => cellKey(key(env))).join('\u0001');
    const list = byKey.get(k);
    if (list) list.push(row);
    else byKey.set(k, [row]);
  }
  return [...byKey.values()].map((group) => ({ row: group[0] as JoinedRow, group, outer }));
}

function containsAggregate(e: Expr): boolean {
  switch (e.kind) {
    case 'call':
      return AGGREGATES.has(e.name) || e.args.some(containsAggregate);
    case 'literal':
    case 'column':
    case 'subquery':
    case 'exists':
      return false;
    case 'binary':
    case 'and':
    case 'or':
    case 'compare':
      return containsAggregate(e.left) || containsAggregate(e.right);
    case 'negate':
    case 'not':
    case 'isnull':
      return containsAggregate(e.operand);
    case 'trim':
      return containsAggregate(e.operand) || (e.chars ? containsAggregate(e.chars) : false);
    case 'case':
      return (
        (e.operand ? containsAggregate(e.operand) : false) ||
        (e.otherwise ? containsAggregate(e.otherwise) : false) ||
        e.whens.some((w) => containsAggregate(w.when) || containsAggregate(w.then))
      );
    case 'like':
      return containsAggregate(e.operand) || containsAggregate(e.pattern);
    case 'in':
      return containsAggregate(e.operand) || (Array.isArray(e.list) && e.list.some(containsAggregate));
    case 'between':
      return containsAggregate(e.operand) || containsAggregate(e.low) || containsAggregate(e.high);
  }
}

function hasAggregate(stmt: SelectStatement): boolean {
  return (
    stmt.items.some((i) => i.kind === 'expr' && containsAggregate(i.expr)) ||
    (stmt.having ? containsAggregate(stmt.having) : false) ||
    stmt.orderBy.some((o) => containsAggregate(o.expr))
  );
}

/** GROUP BY n names the n-th select item; a bare name that is no column may name a select item's alias. */
function groupExpression(e: Expr, items: SelectItem[], scope: Scope): Expr {
  const positional = selectPosition(e, items);
  if (positional !== undefined) {
    const item = items[positional];
    if (item?.kind !== 'expr') throw syntaxError();
    return item.expr;
  }
  if (
    e.kind === 'column' &&
    e.qualifier === undefined &&
    !scope.sources.some((s) => s.columns.includes(e.name))
  ) {
    const aliased = items.find((i) => i.kind === 'expr' && i.alias === e.name);
    if (aliased?.kind === 'expr') return aliased.expr;
  }
  return e;
}

function selectPosition(e: Expr, items: SelectItem[]): number | undefined {
  if (e.kind !== 'literal' || e.value === null || !/^\d+$/.test(e.value)) return undefined;
  const n = Number(e.value);
  if (n < 1 || n > items.length) throw syntaxError();
  return n - 1;
}

/**
 * The name of an unlabelled select item. Informix heads them `(count)`, `(max)`, `(expression)`, `(constant)`
 * (DB-Access and CUCM's `run sql`, e.g. UC Guerrilla's published outputs show `(count)` for COUNT(*)); XML
 * element names cannot hold parentheses and AXL's `<row>` children carry the bare word, as the lab always
 * answered `count` for COUNT(*). No public capture of AXL with an unlabelled expression was found, so
 * `expression` and `constant` follow the same rule by assumption.
 */
function defaultName(e: Expr): string {
  if (e.kind === 'column') return e.name;
  if (e.kind === 'call' && AGGREGATES.has(e.name)) return e.name;
  if (e.kind === 'literal') return 'constant';
  return 'expression';
}

function project(
  items: SelectItem[],
  sources: readonly Source[],
  compiler: ExprCompiler,
  grouped: boolean,
): { labels: string[]; values: ValueFn[] } {
  const labels: string[] = [];
  const values: ValueFn[] = [];
  for (const item of items) {
    if (item.kind === 'expr') {
      values.push(compiler.value(item.expr));
      labels.push(item.alias ?? defaultName(item.expr));
      continue;
    }
    const chosen = sources
      .map((s, index) => ({ s, index }))
      .filter(
        ({ s }) => item.qualifier === undefined || s.binding === item.qualifier || s.table === item.qualifier,
      );
    if (chosen.length === 0) throw syntaxError();
    for (const { s, index } of chosen) {
      for (const column of s.columns) {
        if (grouped) compiler.value({ kind: 'column', qualifier: s.binding, name: column });
        values.push(readColumn({ depth: 0, index, column }));
        labels.push(column);
      }
    }
  }
  return { labels, values };
}

/** ORDER BY n, ORDER BY alias, or any expression of the query's tables. */
function orderKey(e: Expr, items: SelectItem[], values: ValueFn[], compiler: ExprCompiler): ValueFn {
  if (e.kind === 'literal' && e.value !== null && /^\d+$/.test(e.value)) {
    const n = Number(e.value);
    if (n < 1 || n > values.length) throw syntaxError();
    return values[n - 1] as ValueFn;
  }
  if (e.kind === 'column' && e.qualifier === undefined) {
    const index = items.findIndex((i) => i.kind === 'expr' && i.alias === e.name);
    // Positions in `values` follow the items only when no `*` precedes: then recompile the aliased expression.
    if (index !== -1) return compiler.value((items[index] as Extract<SelectItem, { kind: 'expr' }>).expr);
  }
  return compiler.value(e);
}
