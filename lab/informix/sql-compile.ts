import type { Cell } from './database.ts';
import { DbError } from './database.ts';
import type { CompareOp, Expr, SelectStatement } from './sql-ast.ts';
import { AGGREGATES, routineNotFound, scalarFunction, trimChars } from './sql-functions.ts';
import { syntaxError } from './sql-lexer.ts';
import type { CondFn, Env, ValueFn } from './sql-scope.ts';
import type { Scope } from './sql-scope.ts';
import { readColumn } from './sql-scope.ts';
import { cellKey, compareCells, fromNumber, likeToRegExp, toNumber } from './sql-values.ts';

export interface CompiledSelect {
  columns: string[];
  /** Whether the statement reads columns of an enclosing query, so it must run again for each outer row. */
  correlated: boolean;
  run(outer?: Env): Cell[][];
}

/** Compiles a subquery in the scope of its enclosing query (injected: the planner lives in sql-select.ts). */
export type SubqueryCompiler = (stmt: SelectStatement, parent: Scope) => CompiledSelect;

function notGrouped(name: string): DbError {
  return new DbError(-294, `The column (${name}) must be in the GROUP BY list.`);
}

function tooManyRows(): DbError {
  return new DbError(-284, 'A subquery has returned not exactly one row.');
}

function compare(op: CompareOp, c: number): boolean {
  switch (op) {
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
}

/**
 * Turns expressions into closures over an Env. In `group` mode (a query with GROUP BY or aggregates), a column
 * may be read only inside an aggregate or as part of a GROUP BY expression, as Informix requires (-294).
 */
export class ExprCompiler {
  private mode: 'row' | 'group' = 'row';
  private insideAggregate = false;
  private readonly groupSignatures = new Set<string>();

  constructor(
    readonly scope: Scope,
    private readonly subquery: SubqueryCompiler,
  ) {}

  /** Switches to group mode with these GROUP BY expressions (already compiled separately in row mode). */
  grouped(groupBy: readonly Expr[]): void {
    this.mode = 'group';
    for (const e of groupBy) this.groupSignatures.add(this.signature(e));
  }

  value(e: Expr): ValueFn {
    if (this.mode === 'group' && e.kind !== 'literal' && this.groupSignatures.has(this.signature(e)))
      return this.inRowMode(() => this.valueOf(e));
    return this.valueOf(e);
  }

  cond(e: Expr): CondFn {
    switch (e.kind) {
      case 'and': {
        const l = this.cond(e.left);
        const r = this.cond(e.right);
        return (env) => {
          const a = l(env);
          if (a === false) return false;
          const b = r(env);
          if (b === false) return false;
          return a === null || b === null ? null : true;
        };
      }
      case 'or': {
        const l = this.cond(e.left);
        const r = this.cond(e.right);
        return (env) => {
          const a = l(env);
          if (a === true) return true;
          const b = r(env);
          if (b === true) return true;
          return a === null || b === null ? null : false;
        };
      }
      case 'not': {
        const inner = this.cond(e.operand);
        return (env) => {
          const v = inner(env);
          return v === null ? null : !v;
        };
      }
      case 'compare': {
        const l = this.value(e.left);
        const r = this.value(e.right);
        const op = e.op;
        return (env) => {
          const a = l(env);
          const b = r(env);
          return a === null || b === null ? null : compare(op, compareCells(a, b));
        };
      }
      case 'between': {
        const v = this.value(e.operand);
        const lo = this.value(e.low);
        const hi = this.value(e.high);
        const negated = e.negated;
        return (env) => {
          const a = v(env);
          const l = lo(env);
          const h = hi(env);
          if (a === null || l === null || h === null) return null;
          return (compareCells(a, l) >= 0 && compareCells(a, h) <= 0) !== negated;
        };
      }
      case 'isnull': {
        const v = this.value(e.operand);
        const negated = e.negated;
        return (env) => (v(env) === null) !== negated;
      }
      case 'like':
        return this.like(e.operand, e.pattern, e.negated);
      case 'in':
        return Array.isArray(e.list) ? this.inList(e.operand, e.list, e.negated) : this.inSelect(e);
      case 'exists': {
        const sub = this.subquery(e.select, this.scope);
        const once = sub.correlated ? undefined : cached(() => sub.run().length > 0);
        const negated = e.negated;
        return (env) => (once ? once() : sub.run(env).length > 0) !== negated;
      }
      default:
        // A bare value where a condition belongs (WHERE name): Informix cannot parse it either.
        throw syntaxError();
    }
  }

  private valueOf(e: Expr): ValueFn {
    switch (e.kind) {
      case 'literal': {
        const v = e.value;
        return () => v;
      }
      case 'column': {
        const c = this.scope.resolve(e.qualifier, e.name);
        if (this.mode === 'group' && c.depth === 0) throw notGrouped(e.name);
        return readColumn(c);
      }
      case 'negate': {
        const v = this.value(e.operand);
        return (env) => {
          const n = toNumber(v(env));
          return n === null ? null : fromNumber(-n);
        };
      }
      case 'binary':
        return this.binary(e.op, this.value(e.left), this.value(e.right));
      case 'call':
        return AGGREGATES.has(e.name) ? this.aggregate(e) : this.scalar(e.name, e.args);
      case 'trim': {
        const operand = this.value(e.operand);
        const chars = e.chars ? this.value(e.chars) : () => ' ';
        const side = e.side;
        return (env) => {
          const s = operand(env);
          const c = chars(env);
          return s === null || c === null ? null : trimChars(s, side, c);
        };
      }
      case 'case':
        return this.caseExpr(e);
      case 'subquery': {
        const sub = this.subquery(e.select, this.scope);
        if (sub.columns.length !== 1) throw syntaxError();
        const scalar = (rows: Cell[][]): Cell => {
          if (rows.length > 1) throw tooManyRows();
          return rows[0]?.[0] ?? null;
        };
        const once = sub.correlated ? undefined : cached(() => scalar(sub.run()));
        return (env) => (once ? once() : scalar(sub.run(env)));
      }
      default:
        // A condition where a value belongs (SELECT a = b): outside the subset.
        throw syntaxError();
    }
  }

  private binary(op: '+' | '-' | '*' | '/' | '||', l: ValueFn, r: ValueFn): ValueFn {
    if (op === '||') {
      return (env) => {
        const a = l(env);
        const b = r(env);
        return a === null || b === null ? null : a + b;
      };
    }
    return (env) => {
      const a = toNumber(l(env));
      const b = toNumber(r(env));
      if (a === null || b === null) return null;
      switch (op) {
        case '+':
          return fromNumber(a + b);
        case '-':
          return fromNumber(a - b);
        case '*':
          return fromNumber(a * b);
        default:
          if (b === 0) throw new DbError(-1202, 'An attempt was made to divide by zero.');
          return fromNumber(a / b);
      }
    };
  }

  private scalar(name: string, args: Expr[]): ValueFn {
    const fn = scalarFunction(name, args.length);
    const compiled = args.map((a) => this.value(a));
    return (env) => fn(compiled.map((c) => c(env)));
  }

  private aggregate(e: Extract<Expr, { kind: 'call' }>): ValueFn {
    // Aggregates belong to the select list, HAVING and ORDER BY of a grouped query, never nested (Informix
    // -544) and never in WHERE, ON or GROUP BY (-303, as the Informix messages describe them).
    if (this.insideAggregate) throw new DbError(-544, 'Cannot have aggregates within aggregates.');
    if (this.mode !== 'group') throw new DbError(-303, 'Expression mixes columns with aggregates.');
    if (e.star) {
      return (env) => String(env.group?.length ?? 0);
    }
    if (e.args.length !== 1) throw routineNotFound(e.name);
    this.insideAggregate = true;
    let arg: ValueFn;
    try {
      arg = this.inRowMode(() => this.value(e.args[0] as Expr));
    } finally {
      this.insideAggregate = false;
    }
    const { name, distinct } = e;
    return (env) => {
      const values: string[] = [];
      const seen = distinct ? new Set<string>() : undefined;
      for (const row of env.group ?? []) {
        const v = arg({ row, outer: env.outer });
        if (v === null) continue;
        if (seen) {
          const k = cellKey(v);
          if (seen.has(k)) continue;
          seen.add(k);
        }
        values.push(v);
      }
      return reduce(name, values);
    };
  }

  private caseExpr(e: Extract<Expr, { kind: 'case' }>): ValueFn {
    const otherwise = e.otherwise ? this.value(e.otherwise) : () => null;
    const thens = e.whens.map((w) => this.value(w.then));
    if (e.operand) {
      const operand = this.value(e.operand);
      const whens = e.whens.map((w) => this.value(w.when));
      return (env) => {
        const v = operand(env);
        for (let i = 0; i < whens.length; i++) {
          const w = (whens[i] as ValueFn)(env);
          if (v !== null && w !== null && compareCells(v, w) === 0) return (thens[i] as ValueFn)(env);
        }
        return otherwise(env);
      };
    }
    const whens = e.whens.map((w) => this.cond(w.when));
    return (env) => {
      for (let i = 0; i < whens.length; i++)
        if ((whens[i] as CondFn)(env) === true) return (thens[i] as ValueFn)(env);
      return otherwise(env);
    };
  }

  private like(operandExpr: Expr, patternExpr: Expr, negated: boolean): CondFn {
    const operand = this.value(operandExpr);
    const pattern = this.value(patternExpr);
    const regexps = new Map<string, RegExp>();
    return (env) => {
      const v = operand(env);
      const p = pattern(env);
      if (v === null || p === null) return null;
      let re = regexps.get(p);
      if (!re) {
        re = likeToRegExp(p);
        if (regexps.size < 1000) regexps.set(p, re);
      }
      return re.test(v) !== negated;
    };
  }

  private inList(operandExpr: Expr, list: Expr[], negated: boolean): CondFn {
    const operand = this.value(operandExpr);
    const values = list.map((x) => this.value(x));
    return (env) =>
      membership(
        operand(env),
        values.map((x) => x(env)),
        negated,
      );
  }

  private inSelect(e: Extract<Expr, { kind: 'in' }>): CondFn {
    const operand = this.value(e.operand);
    const sub = this.subquery(e.list as SelectStatement, this.scope);
    if (sub.columns.length !== 1) throw syntaxError();
    const negated = e.negated;
    if (sub.correlated)
      return (env) =>
        membership(
          operand(env),
          sub.run(env).map((r) => r[0] ?? null),
          negated,
        );
    const set = cached(() => {
      const keys = new Set<string>();
      let hasNull = false;
      for (const r of sub.run()) {
        const v = r[0] ?? null;
        if (v === null) hasNull = true;
        else keys.add(cellKey(v));
      }
      return { keys, hasNull };
    });
    return (env) => {
      const v = operand(env);
      if (v === null) return null;
      const { keys, hasNull } = set();
      if (keys.has(cellKey(v))) return !negated;
      return hasNull ? null : negated;
    };
  }

  private inRowMode<T>(fn: () => T): T {
    const saved = this.mode;
    this.mode = 'row';
    try {
      return fn();
    } finally {
      this.mode = saved;
    }
  }

  /** Equal for two spellings of the same expression (d.name and name when both mean device.name). */
  signature(e: Expr): string {
    return JSON.stringify(e, (_key, value: unknown) => {
      if (value && typeof value === 'object' && (value as Expr).kind === 'column') {
        const c = value as Extract<Expr, { kind: 'column' }>;
        try {
          const r = this.scope.resolve(c.qualifier, c.name);
          return `column:${r.depth}:${r.index}:${r.column}`;
        } catch {
          // A subquery's own column: compared by spelling.
          return `column:${c.qualifier ?? ''}.${c.name}`;
        }
      }
      return value;
    });
  }
}

/** x IN (list) under three-valued logic: UNKNOWN when x is NULL, or when nothing matched and the list had NULL. */
function membership(v: Cell, list: Cell[], negated: boolean): boolean | null {
  if (v === null) return null;
  let hasNull = false;
  for (const x of list) {
    if (x === null) hasNull = true;
    else if (compareCells(v, x) === 0) return !negated;
  }
  return hasNull ? null : negated;
}

function reduce(name: string, values: string[]): Cell {
  if (name === 'count') return String(values.length);
  if (values.length === 0) return null;
  if (name === 'min' || name === 'max') {
    let best = values[0] as string;
    for (const v of values) {
      const c = compareCells(v, best);
      if (name === 'min' ? c < 0 : c > 0) best = v;
    }
    return best;
  }
  let sum = 0;
  for (const v of values) sum += toNumber(v) as number;
  return fromNumber(name === 'sum' ? sum : sum / values.length);
}

function cached<T>(compute: () => T): () => T {
  let done = false;
  let value: T;
  return () => {
    if (!done) {
      value = compute();
      done = true;
    }
    return value;
  };
}
