// Argument lists inside parentheses or brackets: one argument at a time with QuestDB's "missing arguments"
// error for `f(a,)` / `f(,a)`, and the closing-parenthesis check that reports an unclosed `(` where it opened.
import type { Expr } from './ast.js';
import type { Token } from './token.js';
import type { ParseCursor } from './parse-cursor.js';

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
