// Cursor over one statement's tokens plus the helpers every parse-*.ts file shares: keyword tests,
// expect-or-fail, QuestDB-shaped error messages, names and comma lists. It owns the nesting guard:
// enter() fails with 'expression is too complex' long before the JS stack could overflow. Argument lists report
// QuestDB's "missing arguments" for `f(a,)` and an unclosed `(` where it opened ("unbalanced (").
// Queries and expressions are reached through `hooks` so the parse-*.ts files can nest them without import cycles.
import { SqlError } from '../../core/errors.js';
import { assert } from '../../core/assert.js';
import { exprDepthMax } from '../../core/limits.js';
import type { Expr, Name, QueryExpr } from './ast.js';
import type { Token } from './token.js';
import { isOperator, isReservedWord, isWord, reservedNameMessage } from './token.js';

export interface ParseHooks {
  /** Parses a full query (WITH, set operations, ORDER BY, LIMIT) starting at the cursor. */
  readonly parseQuery: (cursor: ParseCursor) => QueryExpr;
  /** Parses one expression (lowest precedence) starting at the cursor. */
  readonly parseExpression: (cursor: ParseCursor) => Expr;
}

export class ParseCursor {
  index = 0;
  private depth = 0;

  constructor(readonly text: string, readonly tokens: readonly Token[], readonly hooks: ParseHooks) {
    assert(tokens.length > 0 && tokens[tokens.length - 1].kind === 'eof', 'the token list ends with eof');
  }

  peek(ahead = 0): Token {
    return this.tokens[Math.min(this.index + ahead, this.tokens.length - 1)];
  }

  next(): Token {
    const token = this.peek();
    if (token.kind !== 'eof') this.index++;
    return token;
  }

  atEnd(): boolean {
    return this.peek().kind === 'eof';
  }

  /** End of the statement: end of input or the `;` that closes it. */
  atStatementEnd(): boolean {
    return this.atEnd() || isOperator(this.peek(), ';');
  }

  isWord(word: string, ahead = 0): boolean {
    return isWord(this.peek(ahead), word);
  }

  isOperator(op: string, ahead = 0): boolean {
    return isOperator(this.peek(ahead), op);
  }

  acceptWord(word: string): Token | undefined {
    return this.isWord(word) ? this.next() : undefined;
  }

  acceptOperator(op: string): Token | undefined {
    return this.isOperator(op) ? this.next() : undefined;
  }

  expectWord(word: string, message = `'${word}' expected`): Token {
    if (!this.isWord(word)) throw this.error(message);
    return this.next();
  }

  expectOperator(op: string, message = `'${op}' expected`): Token {
    if (!this.isOperator(op)) throw this.error(message);
    return this.next();
  }

  /** An error at a token (the next one by default); at end of input the position is the text length. */
  error(message: string, token: Token = this.peek()): SqlError {
    return new SqlError(message, token.start);
  }

  /** An error at a position that is not a token start (a node's position, a unit inside `15x`). */
  errorAt(message: string, position: number): SqlError {
    return new SqlError(message, position);
  }

  /** QuestDB's `unexpected token [x]` (SqlException.unexpectedToken). */
  unexpected(token: Token = this.peek()): SqlError {
    if (token.kind === 'eof') return this.error('unexpected end of input', token);
    return this.error(`unexpected token [${token.text}]`, token);
  }

  /** QuestDB's parser error naming the token it found (SqlException.parserErr): `found [tok='x', len=1] <message>`. */
  found(message: string, token: Token = this.peek()): SqlError {
    if (token.kind === 'eof') return this.error(`${message}`, token);
    return this.error(`found [tok='${token.text}', len=${token.text.length}] ${message}`, token);
  }

  /** Counts one level of nesting; fails at `token` once the nesting passes exprDepthMax. */
  enter(token: Token): void {
    this.depth++;
    if (this.depth > exprDepthMax) throw this.error('expression is too complex', token);
  }

  leave(): void {
    assert(this.depth > 0, 'leave() pairs with enter()');
    this.depth--;
  }

  /** Skips to the end of the statement and returns the source text from `from` to the last token skipped. */
  skipToStatementEnd(from: Token): string {
    let end = from.start;
    while (!this.atStatementEnd()) end = this.next().end;
    return this.text.slice(from.start, end);
  }
}

/**
 * A name: an unquoted identifier that is not reserved, a "quoted identifier", or (where QuestDB allows it,
 * e.g. table names) a 'string'. `what` completes the error at end of input or on a non-name token.
 */
export function parseName(c: ParseCursor, what: string, allowString = false): Name {
  const token = c.peek();
  if (token.kind === 'quotedIdentifier' || (allowString && token.kind === 'string')) {
    c.next();
    return { name: token.value, position: token.start };
  }
  if (token.kind === 'identifier') {
    if (isReservedWord(token)) throw c.error(reservedNameMessage(token), token);
    c.next();
    return { name: token.value, position: token.start };
  }
  throw c.error(`${what} expected`, token);
}

/**
 * A table name as written in FROM, DDL and DML: a name or 'string'; a dotted name is joined with dots,
 * and the `public.` schema prefix that PostgreSQL clients send is dropped.
 */
export function parseTableName(c: ParseCursor): Name {
  const first = parseName(c, 'table name', true);
  let name = first.name;
  let position = first.position;
  while (c.isOperator('.') && c.peek().start === c.peek(-1).end) {
    c.next();
    const part = parseName(c, 'table name', true);
    if (name.toLowerCase() === 'public' && position === first.position) {
      name = part.name;
      position = part.position;
    } else {
      name = `${name}.${part.name}`;
    }
  }
  return { name, position };
}

/** `item (, item)*`. */
export function parseCommaList<T>(c: ParseCursor, parseItem: (c: ParseCursor) => T): T[] {
  const items = [parseItem(c)];
  while (c.acceptOperator(',')) items.push(parseItem(c));
  return items;
}

/** `( name, name ... )` as in `DEDUP UPSERT KEYS(ts, sym)` and `USING (a, b)`. */
export function parseParenthesizedNames(c: ParseCursor, what: string): Name[] {
  c.expectOperator('(');
  const names = parseCommaList(c, (cc) => parseName(cc, what));
  c.expectOperator(')');
  return names;
}

/** The node without its undefined-valued keys, so optional AST fields are absent rather than present-but-undefined. */
export function compact<T extends object>(node: T): T {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (value !== undefined) out[key] = value;
  }
  return out as T;
}

/** One argument of a call, IN list, VALUES row or array constructor. */
export function parseArgument(c: ParseCursor): Expr {
  if (c.isOperator(',') || c.isOperator(')') || c.isOperator(']')) throw c.error('missing arguments');
  return c.hooks.parseExpression(c);
}

/** `arg (, arg)*`. */
export function parseArguments(c: ParseCursor): Expr[] {
  const args = [parseArgument(c)];
  while (c.acceptOperator(',')) args.push(parseArgument(c));
  return args;
}

/**
 * The `)` that closes `open`. At end of input QuestDB reports the unclosed `(` itself ("unbalanced ("),
 * on any other token the token where `)` was expected.
 */
export function expectClose(c: ParseCursor, open: Token): Token {
  if (c.isOperator(')')) return c.next();
  if (c.atEnd()) throw c.error('unbalanced (', open);
  throw c.error("')' expected");
}
