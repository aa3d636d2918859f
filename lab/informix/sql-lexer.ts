import { DbError } from './database.ts';

export type TokenKind = 'word' | 'string' | 'number' | 'symbol' | 'end';

export interface Token {
  kind: TokenKind;
  /** Words are lowercased (Informix names are case-insensitive); strings keep their case. */
  value: string;
  pos: number;
}

// Statements longer than this are refused before any work: a real node has its own bounds too.
export const MAX_SQL_LENGTH = 64 * 1024;

/** Informix's answer to anything it cannot parse, and the lab's to any construct outside its subset. */
export function syntaxError(): DbError {
  return new DbError(-201, 'A syntax error has occurred.');
}

const SYMBOLS = ['<>', '!=', '<=', '>=', '||', '=', '<', '>', '(', ')', ',', '*', '.', ';', '+', '-', '/'];

export function tokenize(sql: string): Token[] {
  if (sql.length > MAX_SQL_LENGTH) throw syntaxError();
  const tokens: Token[] = [];
  let i = 0;
  while (i < sql.length) {
    const c = sql[i] as string;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if ((c === '-' && sql[i + 1] === '-') || c === '{' || (c === '/' && sql[i + 1] === '*')) {
      // Comments could hide a second statement from a naive filter; the lab refuses them instead.
      throw syntaxError();
    }
    if (c === "'" || c === '"') {
      let j = i + 1;
      let value = '';
      for (;;) {
        if (j >= sql.length) throw syntaxError();
        const d = sql[j] as string;
        if (d === c) {
          if (sql[j + 1] === c) {
            value += c;
            j += 2;
            continue;
          }
          break;
        }
        value += d;
        j++;
      }
      tokens.push({ kind: 'string', value, pos: i });
      i = j + 1;
      continue;
    }
    // A sign is an operator token: the parser decides whether it is unary or binary.
    const number = /^(\d+(\.\d*)?|\.\d+)/.exec(sql.slice(i, i + 40));
    if (number) {
      tokens.push({ kind: 'number', value: number[0], pos: i });
      i += number[0].length;
      continue;
    }
    const word = /^[A-Za-z_][A-Za-z0-9_$]*/.exec(sql.slice(i, i + 200));
    if (word) {
      tokens.push({ kind: 'word', value: word[0].toLowerCase(), pos: i });
      i += word[0].length;
      continue;
    }
    const symbol = SYMBOLS.find((s) => sql.startsWith(s, i));
    if (!symbol) throw syntaxError();
    tokens.push({ kind: 'symbol', value: symbol, pos: i });
    i += symbol.length;
  }
  tokens.push({ kind: 'end', value: '', pos: sql.length });
  return tokens;
}
