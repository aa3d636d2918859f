import { DbError } from './database.ts';
import type {
  ColumnName,
  CompareOp,
  Condition,
  Literal,
  SelectItem,
  SelectStatement,
  Statement,
} from './sql-ast.ts';
import type { Token } from './sql-lexer.ts';
import { syntaxError, tokenize } from './sql-lexer.ts';

const MAX_DEPTH = 64;
const RESERVED = new Set([
  'select',
  'from',
  'where',
  'and',
  'or',
  'not',
  'order',
  'by',
  'skip',
  'first',
  'limit',
  'as',
]);

export function unsupported(what: string): DbError {
  return new DbError(-201, `A syntax error has occurred. (the lab does not support ${what})`);
}

/** Parses one statement of the lab's SQL subset; anything else is an Informix syntax error. */
export function parseSql(sql: string): Statement {
  return new Parser(tokenize(sql)).statement();
}

class Parser {
  private i = 0;
  private depth = 0;

  constructor(private readonly tokens: Token[]) {}

  statement(): Statement {
    const head = this.peek();
    let stmt: Statement;
    if (this.acceptWord('select')) stmt = this.select();
    else if (this.acceptWord('insert')) stmt = this.insert();
    else if (this.acceptWord('update')) stmt = this.update();
    else if (this.acceptWord('delete')) stmt = this.deleteStmt();
    else if (head.kind === 'word') throw unsupported(`${head.value.toUpperCase()} statements`);
    else throw syntaxError();
    this.acceptSymbol(';');
    if (this.peek().kind !== 'end') throw unsupported('several statements in one request');
    return stmt;
  }

  private select(): SelectStatement {
    const stmt: SelectStatement = { kind: 'select', distinct: false, items: [], table: '', orderBy: [] };
    if (this.acceptWord('skip')) stmt.skip = this.count();
    if (this.acceptWord('first')) stmt.first = this.count();
    if (this.acceptWord('distinct') || this.acceptWord('unique')) stmt.distinct = true;
    do stmt.items.push(this.selectItem());
    while (this.acceptSymbol(','));
    this.expectWord('from');
    stmt.table = this.name();
    if (this.peek().kind === 'word' && !RESERVED.has(this.peek().value)) stmt.alias = this.name();
    else if (this.acceptWord('as')) stmt.alias = this.name();
    if (this.acceptSymbol(',')) throw unsupported('joins (one table per statement)');
    if (this.peekWord('join') || this.peekWord('inner') || this.peekWord('left'))
      throw unsupported('joins (one table per statement)');
    if (this.acceptWord('where')) stmt.where = this.condition();
    if (this.acceptWord('order')) {
      this.expectWord('by');
      do {
        const column = this.column();
        const descending = this.acceptWord('desc');
        if (!descending) this.acceptWord('asc');
        stmt.orderBy.push({ column, descending });
      } while (this.acceptSymbol(','));
    }
    if (this.peekWord('group') || this.peekWord('union') || this.peekWord('limit'))
      throw unsupported(this.peek().value.toUpperCase());
    return stmt;
  }

  private selectItem(): SelectItem {
    if (this.acceptSymbol('*')) return { kind: 'all' };
    if (this.peekWord('count') && this.tokens[this.i + 1]?.value === '(') {
      this.i += 2;
      this.expectSymbol('*');
      this.expectSymbol(')');
      return { kind: 'count', ...this.alias() };
    }
    if (this.tokens[this.i + 1]?.value === '(') throw unsupported('functions in the select list');
    return { kind: 'column', column: this.column(), ...this.alias() };
  }

  private alias(): { alias?: string } {
    if (this.acceptWord('as')) return { alias: this.name() };
    const next = this.peek();
    if (next.kind === 'word' && !RESERVED.has(next.value)) return { alias: this.name() };
    return {};
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
    const values: Literal[] = [];
    do values.push(this.literal());
    while (this.acceptSymbol(','));
    this.expectSymbol(')');
    if (values.length !== columns.length)
      throw new DbError(-236, 'Number of columns in INSERT does not match number of VALUES.');
    return { kind: 'insert' as const, table, columns, values };
  }

  private update() {
    const table = this.name();
    this.expectWord('set');
    const set: { column: string; value: Literal }[] = [];
    do {
      const column = this.column().name;
      this.expectSymbol('=');
      set.push({ column, value: this.literal() });
    } while (this.acceptSymbol(','));
    const where = this.acceptWord('where') ? this.condition() : undefined;
    return { kind: 'update' as const, table, set, ...(where ? { where } : {}) };
  }

  private deleteStmt() {
    this.expectWord('from');
    const table = this.name();
    const where = this.acceptWord('where') ? this.condition() : undefined;
    return { kind: 'delete' as const, table, ...(where ? { where } : {}) };
  }

  private condition(): Condition {
    if (++this.depth > MAX_DEPTH) throw unsupported('conditions nested this deeply');
    let left = this.conjunction();
    while (this.acceptWord('or')) left = { kind: 'or', left, right: this.conjunction() };
    this.depth--;
    return left;
  }

  private conjunction(): Condition {
    let left = this.factor();
    while (this.acceptWord('and')) left = { kind: 'and', left, right: this.factor() };
    return left;
  }

  private factor(): Condition {
    if (this.acceptWord('not')) {
      if (++this.depth > MAX_DEPTH) throw unsupported('conditions nested this deeply');
      const condition = this.factor();
      this.depth--;
      return { kind: 'not', condition };
    }
    if (this.acceptSymbol('(')) {
      const inner = this.condition();
      this.expectSymbol(')');
      return inner;
    }
    const column = this.column();
    if (this.acceptWord('is')) {
      const negated = this.acceptWord('not');
      this.expectWord('null');
      return { kind: 'null', column, negated };
    }
    const negated = this.acceptWord('not');
    if (this.acceptWord('like') || this.acceptWord('matches')) {
      const pattern = this.literal();
      if (pattern === null) throw syntaxError();
      return { kind: 'like', column, pattern, negated };
    }
    if (this.acceptWord('in')) {
      this.expectSymbol('(');
      const values: Literal[] = [];
      do values.push(this.literal());
      while (this.acceptSymbol(','));
      this.expectSymbol(')');
      return { kind: 'in', column, values, negated };
    }
    if (negated) throw syntaxError();
    const op = this.peek();
    if (op.kind !== 'symbol' || !['=', '<>', '!=', '<', '>', '<=', '>='].includes(op.value))
      throw syntaxError();
    this.i++;
    if (this.peek().kind === 'word' && this.peek().value !== 'null')
      throw unsupported('comparing two columns');
    return {
      kind: 'compare',
      column,
      op: (op.value === '!=' ? '<>' : op.value) as CompareOp,
      value: this.literal(),
    };
  }

  private column(): ColumnName {
    const first = this.name();
    if (this.acceptSymbol('.')) return { qualifier: first, name: this.name() };
    return { name: first };
  }

  private literal(): Literal {
    const t = this.peek();
    if (t.kind === 'string' || t.kind === 'number') {
      this.i++;
      return t.value;
    }
    if (t.kind === 'word' && t.value === 'null') {
      this.i++;
      return null;
    }
    throw syntaxError();
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
