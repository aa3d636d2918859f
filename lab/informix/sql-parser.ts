import { DbError } from './database.ts';
import type {
  CompareOp,
  Expr,
  FromSource,
  OrderItem,
  SelectItem,
  SelectStatement,
  Statement,
  TableRef,
} from './sql-ast.ts';
import type { Token } from './sql-lexer.ts';
import { syntaxError, tokenize } from './sql-lexer.ts';

// Deeper nesting than this (parentheses, NOT chains, subqueries) is refused before it can exhaust the stack.
const MAX_DEPTH = 64;

/** Words that end an expression or a FROM item, so they are never taken for an alias. */
const RESERVED = new Set([
  'all',
  'and',
  'as',
  'asc',
  'between',
  'by',
  'case',
  'cross',
  'desc',
  'distinct',
  'else',
  'end',
  'escape',
  'except',
  'exists',
  'first',
  'for',
  'from',
  'full',
  'group',
  'having',
  'in',
  'inner',
  'intersect',
  'into',
  'is',
  'join',
  'left',
  'like',
  'limit',
  'matches',
  'minus',
  'natural',
  'not',
  'null',
  'on',
  'or',
  'order',
  'outer',
  'right',
  'select',
  'skip',
  'then',
  'union',
  'unique',
  'when',
  'where',
]);

const COMPARE_OPS = new Set(['=', '<>', '!=', '<', '>', '<=', '>=']);

/** Parses one statement of the lab's SQL subset; anything else is Informix's -201 syntax error. */
export function parseSql(sql: string): Statement {
  return new Parser(tokenize(sql)).statement();
}

class Parser {
  private i = 0;
  private depth = 0;

  constructor(private readonly tokens: Token[]) {}

  statement(): Statement {
    let stmt: Statement;
    if (this.acceptWord('select')) stmt = this.select();
    else if (this.acceptWord('insert')) stmt = this.insert();
    else if (this.acceptWord('update')) stmt = this.update();
    else if (this.acceptWord('delete')) stmt = this.deleteStmt();
    else throw syntaxError();
    this.acceptSymbol(';');
    if (this.peek().kind !== 'end') throw syntaxError();
    return stmt;
  }

  private select(): SelectStatement {
    this.enter();
    const stmt: SelectStatement = {
      kind: 'select',
      distinct: false,
      items: [],
      from: [],
      groupBy: [],
      orderBy: [],
    };
    if (this.acceptWord('skip')) stmt.skip = this.count();
    // Informix takes LIMIT as a synonym of FIRST in the projection clause.
    if (this.acceptWord('first') || this.acceptWord('limit')) stmt.first = this.count();
    if (this.acceptWord('distinct') || this.acceptWord('unique')) stmt.distinct = true;
    else this.acceptWord('all');
    do stmt.items.push(this.selectItem());
    while (this.acceptSymbol(','));
    this.expectWord('from');
    stmt.from = this.fromList();
    if (this.acceptWord('where')) stmt.where = this.expr();
    if (this.acceptWord('group')) {
      this.expectWord('by');
      do stmt.groupBy.push(this.expr());
      while (this.acceptSymbol(','));
    }
    if (this.acceptWord('having')) stmt.having = this.expr();
    if (this.acceptWord('order')) {
      this.expectWord('by');
      do stmt.orderBy.push(this.orderItem());
      while (this.acceptSymbol(','));
    }
    this.depth--;
    return stmt;
  }

  private selectItem(): SelectItem {
    if (this.acceptSymbol('*')) return { kind: 'all' };
    const t = this.peek();
    const next = this.tokens[this.i + 1];
    const after = this.tokens[this.i + 2];
    if (t.kind === 'word' && next?.value === '.' && after?.value === '*') {
      this.i += 3;
      return { kind: 'all', qualifier: t.value };
    }
    const expr = this.expr();
    const alias = this.alias();
    return alias === undefined ? { kind: 'expr', expr } : { kind: 'expr', expr, alias };
  }

  private alias(): string | undefined {
    if (this.acceptWord('as')) return this.name();
    const next = this.peek();
    if (next.kind === 'word' && !RESERVED.has(next.value)) return this.name();
    return undefined;
  }

  private orderItem(): OrderItem {
    const expr = this.expr();
    const descending = this.acceptWord('desc');
    if (!descending) this.acceptWord('asc');
    return { expr, descending };
  }

  private fromList(): FromSource[] {
    const from: FromSource[] = [{ ...this.tableRef(), join: 'first' }];
    for (;;) {
      if (this.acceptSymbol(',')) {
        if (this.acceptWord('outer')) from.push(...this.outerTables());
        else from.push({ ...this.tableRef(), join: 'inner' });
      } else if (this.acceptWord('cross')) {
        this.expectWord('join');
        from.push({ ...this.tableRef(), join: 'inner' });
      } else if (this.peekWord('join') || this.peekWord('inner')) {
        this.acceptWord('inner');
        this.expectWord('join');
        const ref = this.tableRef();
        this.expectWord('on');
        from.push({ ...ref, join: 'inner', on: this.expr() });
      } else if (this.acceptWord('left')) {
        this.acceptWord('outer');
        this.expectWord('join');
        const ref = this.tableRef();
        this.expectWord('on');
        from.push({ ...ref, join: 'left', on: this.expr() });
      } else return from;
    }
  }

  /** `OUTER t` or `OUTER (t1, t2)`: each table is outer-joined to everything before it. */
  private outerTables(): FromSource[] {
    if (!this.acceptSymbol('(')) return [{ ...this.tableRef(), join: 'outer' }];
    const list: FromSource[] = [];
    do {
      this.acceptWord('outer');
      list.push({ ...this.tableRef(), join: 'outer' });
    } while (this.acceptSymbol(','));
    this.expectSymbol(')');
    return list;
  }

  private tableRef(): TableRef {
    const table = this.name();
    if (RESERVED.has(table)) throw syntaxError();
    const alias = this.alias();
    return alias === undefined ? { table } : { table, alias };
  }

  private insert() {
    this.expectWord('into');
    const table = this.name();
    this.expectSymbol('(');
    const columns: string[] = [];
    do columns.push(this.name());
    while (this.acceptSymbol(','));
    this.expectSymbol(')');
    this.expectWord('values');
    this.expectSymbol('(');
    const values: Expr[] = [];
    do values.push(this.expr());
    while (this.acceptSymbol(','));
    this.expectSymbol(')');
    if (values.length !== columns.length)
      throw new DbError(-236, 'Number of columns in INSERT does not match number of VALUES.');
    return { kind: 'insert' as const, table, columns, values };
  }

  private update() {
    const table = this.name();
    this.expectWord('set');
    const set: { column: string; value: Expr }[] = [];
    do {
      let column = this.name();
      if (this.acceptSymbol('.')) column = this.name();
      this.expectSymbol('=');
      set.push({ column, value: this.expr() });
    } while (this.acceptSymbol(','));
    const where = this.acceptWord('where') ? this.expr() : undefined;
    return { kind: 'update' as const, table, set, ...(where ? { where } : {}) };
  }

  private deleteStmt() {
    this.expectWord('from');
    const table = this.name();
    const where = this.acceptWord('where') ? this.expr() : undefined;
    return { kind: 'delete' as const, table, ...(where ? { where } : {}) };
  }

  // Expressions, lowest precedence first: OR, AND, NOT, predicates, + - ||, * /, unary minus, primaries.

  private expr(): Expr {
    this.enter();
    let left = this.conjunction();
    while (this.acceptWord('or')) left = { kind: 'or', left, right: this.conjunction() };
    this.depth--;
    return left;
  }

  private conjunction(): Expr {
    let left = this.negation();
    while (this.acceptWord('and')) left = { kind: 'and', left, right: this.negation() };
    return left;
  }

  private negation(): Expr {
    if (!this.acceptWord('not')) return this.predicate();
    this.enter();
    const operand = this.negation();
    this.depth--;
    return { kind: 'not', operand };
  }

  private predicate(): Expr {
    if (this.acceptWord('exists'))
      return { kind: 'exists', select: this.parenthesisedSelect(), negated: false };
    const left = this.additive();
    if (this.acceptWord('is')) {
      const negated = this.acceptWord('not');
      this.expectWord('null');
      return { kind: 'isnull', operand: left, negated };
    }
    const negated = this.acceptWord('not');
    if (this.acceptWord('like') || this.acceptWord('matches')) {
      const pattern = this.additive();
      if (this.peekWord('escape')) throw syntaxError();
      return { kind: 'like', operand: left, pattern, negated };
    }
    if (this.acceptWord('in')) {
      this.expectSymbol('(');
      if (this.peekWord('select')) {
        this.i--;
        return { kind: 'in', operand: left, list: this.parenthesisedSelect(), negated };
      }
      const list: Expr[] = [];
      do list.push(this.additive());
      while (this.acceptSymbol(','));
      this.expectSymbol(')');
      return { kind: 'in', operand: left, list, negated };
    }
    if (this.acceptWord('between')) {
      const low = this.additive();
      this.expectWord('and');
      return { kind: 'between', operand: left, low, high: this.additive(), negated };
    }
    if (negated) throw syntaxError();
    const op = this.peek();
    if (op.kind !== 'symbol' || !COMPARE_OPS.has(op.value)) return left;
    this.i++;
    if (this.peekWord('any') || this.peekWord('all') || this.peekWord('some')) throw syntaxError();
    const right = this.additive();
    return { kind: 'compare', op: (op.value === '!=' ? '<>' : op.value) as CompareOp, left, right };
  }

  private additive(): Expr {
    let left = this.multiplicative();
    for (;;) {
      const t = this.peek();
      if (t.kind !== 'symbol' || (t.value !== '+' && t.value !== '-' && t.value !== '||')) return left;
      this.i++;
      left = { kind: 'binary', op: t.value, left, right: this.multiplicative() };
    }
  }

  private multiplicative(): Expr {
    let left = this.unary();
    for (;;) {
      const t = this.peek();
      if (t.kind !== 'symbol' || (t.value !== '*' && t.value !== '/')) return left;
      this.i++;
      left = { kind: 'binary', op: t.value, left, right: this.unary() };
    }
  }

  private unary(): Expr {
    if (this.acceptSymbol('+')) return this.unary();
    if (!this.acceptSymbol('-')) return this.primary();
    this.enter();
    const operand = this.unary();
    this.depth--;
    if (operand.kind === 'literal' && operand.value !== null && /^[\d.]/.test(operand.value))
      return { kind: 'literal', value: `-${operand.value}` };
    return { kind: 'negate', operand };
  }

  private primary(): Expr {
    const t = this.peek();
    if (t.kind === 'string' || t.kind === 'number') {
      this.i++;
      return { kind: 'literal', value: t.value };
    }
    if (this.acceptSymbol('(')) {
      if (this.peekWord('select')) {
        this.i--;
        return { kind: 'subquery', select: this.parenthesisedSelect() };
      }
      const inner = this.expr();
      this.expectSymbol(')');
      return inner;
    }
    if (t.kind !== 'word') throw syntaxError();
    if (this.acceptWord('null')) return { kind: 'literal', value: null };
    if (this.acceptWord('case')) return this.caseExpr();
    if (RESERVED.has(t.value)) throw syntaxError();
    this.i++;
    if (this.acceptSymbol('(')) return this.call(t.value);
    if (this.acceptSymbol('.')) return { kind: 'column', qualifier: t.value, name: this.name() };
    return { kind: 'column', name: t.value };
  }

  private call(name: string): Expr {
    if (name === 'trim') return this.trim();
    if (name === 'substring') return this.substring();
    if (this.acceptSymbol('*')) {
      this.expectSymbol(')');
      if (name !== 'count') throw syntaxError();
      return { kind: 'call', name, args: [], star: true };
    }
    const distinct = this.acceptWord('distinct') || this.acceptWord('unique');
    if (!distinct) this.acceptWord('all');
    const args: Expr[] = [];
    if (!this.acceptSymbol(')')) {
      do args.push(this.expr());
      while (this.acceptSymbol(','));
      this.expectSymbol(')');
    }
    return distinct ? { kind: 'call', name, args, distinct } : { kind: 'call', name, args };
  }

  /** TRIM([[LEADING | TRAILING | BOTH] [chars] FROM] source). */
  private trim(): Expr {
    let side: 'leading' | 'trailing' | 'both' = 'both';
    let sided = false;
    for (const s of ['leading', 'trailing', 'both'] as const) {
      if (this.acceptWord(s)) {
        side = s;
        sided = true;
        break;
      }
    }
    let chars: Expr | undefined;
    let operand: Expr;
    if (sided && this.acceptWord('from')) operand = this.expr();
    else {
      const first = this.expr();
      if (this.acceptWord('from')) {
        chars = first;
        operand = this.expr();
      } else if (sided) throw syntaxError();
      else operand = first;
    }
    this.expectSymbol(')');
    return chars ? { kind: 'trim', side, chars, operand } : { kind: 'trim', side, operand };
  }

  /** SUBSTRING(source FROM start [FOR length]), Informix's spelling of SUBSTR. */
  private substring(): Expr {
    const source = this.expr();
    this.expectWord('from');
    const args = [source, this.expr()];
    if (this.acceptWord('for')) args.push(this.expr());
    this.expectSymbol(')');
    return { kind: 'call', name: 'substring', args };
  }

  private caseExpr(): Expr {
    this.enter();
    const operand = this.peekWord('when') ? undefined : this.expr();
    const whens: { when: Expr; then: Expr }[] = [];
    while (this.acceptWord('when')) {
      const when = this.expr();
      this.expectWord('then');
      whens.push({ when, then: this.expr() });
    }
    if (whens.length === 0) throw syntaxError();
    const otherwise = this.acceptWord('else') ? this.expr() : undefined;
    this.expectWord('end');
    this.depth--;
    return {
      kind: 'case',
      whens,
      ...(operand ? { operand } : {}),
      ...(otherwise ? { otherwise } : {}),
    };
  }

  private parenthesisedSelect(): SelectStatement {
    this.expectSymbol('(');
    this.expectWord('select');
    const select = this.select();
    this.expectSymbol(')');
    return select;
  }

  private enter(): void {
    if (++this.depth > MAX_DEPTH) throw syntaxError();
  }

  private count(): number {
    const t = this.peek();
    if (t.kind !== 'number' || !/^\d+$/.test(t.value)) throw syntaxError();
    this.i++;
    return Number(t.value);
  }

  private name(): string {
    const t = this.peek();
    if (t.kind !== 'word') throw syntaxError();
    this.i++;
    return t.value;
  }

  private peek(): Token {
    return this.tokens[this.i] as Token;
  }

  private peekWord(word: string): boolean {
    const t = this.peek();
    return t.kind === 'word' && t.value === word;
  }

  private acceptWord(word: string): boolean {
    if (!this.peekWord(word)) return false;
    this.i++;
    return true;
  }

  private expectWord(word: string): void {
    if (!this.acceptWord(word)) throw syntaxError();
  }

  private acceptSymbol(symbol: string): boolean {
    const t = this.peek();
    if (t.kind !== 'symbol' || t.value !== symbol) return false;
    this.i++;
    return true;
  }

  private expectSymbol(symbol: string): void {
    if (!this.acceptSymbol(symbol)) throw syntaxError();
  }
}
