// Primary expression terms: constants, column references (t.col, t.*), parenthesised expressions, scalar
// subqueries, CASE, CAST, ARRAY[...], typed constants (timestamp '2024-01-01') and function calls.
// Nested expressions are parsed through cursor.hooks.parseExpression, which keeps this file free of import cycles.
import type { ArrayExpr, CaseExpr, CastExpr, ColumnRefExpr, Expr, LiteralExpr, ParameterExpr, StarExpr } from './ast.js';
import type { Token } from './token.js';
import { isOperator, isReservedWord, reservedNameMessage, wordOf } from './token.js';
import type { ParseCursor } from './parse-cursor.js';
import { expectClose, parseArgument } from './parse-cursor.js';
import { readNumericConstant } from './lexer.js';
import { parseTypeName, TYPED_CONSTANT_PREFIXES } from './parse-type-name.js';
import { parseCall } from './parse-call.js';
import { parseLong256 } from '../../types/long256.js';
import { readGeohashLiteral } from '../../types/geohash.js';

/** Reserved words that still start an operand. */
const OPERAND_WORDS = new Set(['not', 'case', 'cast', 'null', 'true', 'false', 'nan', 'select', 'with', 'exists']);

/** Whether `token` can begin an operand; callers use it to report a missing operand in QuestDB's words. */
export function canStartOperand(token: Token): boolean {
  switch (token.kind) {
    case 'number': case 'string': case 'quotedIdentifier':
      return true;
    case 'identifier':
      return !isReservedWord(token) || OPERAND_WORDS.has(wordOf(token));
    case 'operator':
      return token.text === '(' || token.text === '-' || token.text === '+' || token.text === '~';
    case 'eof':
      return false;
  }
}

export function parsePrimary(c: ParseCursor): Expr {
  const token = c.peek();
  switch (token.kind) {
    case 'number':
      c.next();
      return numberLiteral(c, token);
    case 'string':
      c.next();
      return literal(token, 'STRING', token.value);
    case 'quotedIdentifier':
      return parseNameTerm(c);
    case 'identifier':
      if (PARAMETER_PATTERN.test(token.text)) return parseParameter(c, token);
      return parseWordTerm(c, token);
    case 'operator':
      if (token.text === '(') return parseParenthesized(c);
      throw c.unexpected(token);
    case 'eof':
      throw c.error('Expression expected', token);
  }
}

/** `$1` .. `$65535`: the lexer reads `$` as a name character, so a parameter arrives as an identifier token. */
const PARAMETER_PATTERN = /^\$[1-9][0-9]{0,4}$/;
/** The protocol's Bind message counts parameters in an int16. */
const PARAMETER_INDEX_MAX = 65535;

function parseParameter(c: ParseCursor, token: Token): ParameterExpr {
  const index = Number(token.text.slice(1));
  if (index > PARAMETER_INDEX_MAX) throw c.error(`parameter index out of range [max=${PARAMETER_INDEX_MAX}]`, token);
  c.next();
  return { kind: 'parameter', position: token.start, index };
}

function literal(token: Token, literalType: LiteralExpr['literalType'], value: LiteralExpr['value']): LiteralExpr {
  return { kind: 'literal', position: token.start, literalType, value, text: token.text };
}

function numberLiteral(c: ParseCursor, token: Token): LiteralExpr {
  if (token.text.startsWith('#')) {
    const geohash = readGeohashLiteral(token.text);
    if (geohash === undefined) throw c.error(`invalid constant: ${token.text}`, token);
    if ('error' in geohash) throw c.error(geohash.error, token);
    return literal(token, 'GEOHASH', geohash.binary);
  }
  if (/^0[xX]/.test(token.text)) {
    const hex = parseLong256(token.text);
    if (hex === undefined) throw c.error(`invalid constant: ${token.text}`, token);
    return literal(token, 'LONG256', hex);
  }
  // `1.25m`: a DECIMAL literal (QuestDB 9.2); `15m` alone is one too (durations are read by their own clauses).
  if (/^[0-9][0-9_]*(\.[0-9]*)?[mM]$/.test(token.text)) return literal(token, 'DECIMAL', token.text.slice(0, -1).replaceAll('_', ''));
  const constant = readNumericConstant(token);
  if (constant === undefined) throw c.error(`invalid constant: ${token.text}`, token);
  return literal(token, constant.literalType, constant.value);
}

/** PostgreSQL's niladic functions, written without parentheses (`SELECT current_user`). */
const NILADIC_FUNCTIONS = new Set(['current_user', 'session_user', 'current_role', 'current_catalog', 'current_schema']);

function parseWordTerm(c: ParseCursor, token: Token): Expr {
  const word = wordOf(token);
  const next = c.peek(1);
  // `pg_catalog.f(...)`: the schema PostgreSQL tools qualify built-in functions with; svc has one namespace of functions.
  if (word === 'pg_catalog' && isOperator(next, '.') && c.peek(2).kind === 'identifier' && isOperator(c.peek(3), '(')) {
    c.next();
    c.next();
    return parseCall(c);
  }
  if (NILADIC_FUNCTIONS.has(word) && !isOperator(next, '(') && !isOperator(next, '.')) {
    c.next();
    return { kind: 'call', position: token.start, name: word, args: [], star: false, distinct: false, ignoreNulls: false };
  }
  switch (word) {
    case 'null': c.next(); return literal(token, 'NULL', null);
    case 'true': c.next(); return literal(token, 'BOOLEAN', true);
    case 'false': c.next(); return literal(token, 'BOOLEAN', false);
    case 'nan': c.next(); return literal(token, 'DOUBLE', Number.NaN);
    case 'case': return parseCase(c);
    case 'select': case 'with':
      return { kind: 'subquery', position: token.start, query: c.hooks.parseQuery(c) };
    default: break;
  }
  if (word === 'cast' && isOperator(next, '(')) return parseCast(c);
  if (word === 'array' && isOperator(next, '[')) {
    c.next();
    return parseArrayElements(c, token.start);
  }
  if (isOperator(next, '(') && (!isReservedWord(token) || word === 'exists')) return parseCall(c);
  if (TYPED_CONSTANT_PREFIXES.has(word) && next.kind === 'string') return parseTypedConstant(c, token);
  if (isReservedWord(token)) throw c.error(reservedNameMessage(token), token);
  return parseNameTerm(c);
}

/** `name`, `t.name`, `"t"."name"`, `t.*`; the position is that of the first part. */
function parseNameTerm(c: ParseCursor): ColumnRefExpr | StarExpr {
  const first = c.next();
  const parts = [first.value];
  while (c.isOperator('.')) {
    c.next();
    const part = c.peek();
    if (isOperator(part, '*')) {
      c.next();
      return { kind: 'star', position: first.start, qualifier: parts.join('.') };
    }
    if (part.kind === 'identifier' && isReservedWord(part)) throw c.error(reservedNameMessage(part), part);
    if (part.kind !== 'identifier' && part.kind !== 'quotedIdentifier') {
      throw c.error("'*' or column name expected", part);
    }
    c.next();
    parts.push(part.value);
  }
  const name = parts.pop() ?? first.value;
  if (parts.length === 0) return { kind: 'column', position: first.start, name };
  return { kind: 'column', position: first.start, qualifier: parts.join('.'), name };
}

/** `( expr )` or a scalar subquery `( SELECT ... )`. A list `(a, b)` is not an expression. */
function parseParenthesized(c: ParseCursor): Expr {
  const open = c.next();
  if (c.atEnd()) throw c.error('unbalanced (', open);
  if (c.isWord('select') || c.isWord('with')) {
    const query = c.hooks.parseQuery(c);
    c.expectOperator(')');
    return { kind: 'subquery', position: open.start, query };
  }
  const inner = c.hooks.parseExpression(c);
  if (c.isOperator(',')) throw c.error('no function or operator?');
  expectClose(c, open);
  return inner;
}

function parseCase(c: ParseCursor): CaseExpr {
  const caseToken = c.next();
  c.enter(caseToken);
  const subject = c.isWord('when') ? undefined : c.hooks.parseExpression(c);
  const whens: { when: Expr; then: Expr }[] = [];
  while (c.acceptWord('when')) {
    const when = c.hooks.parseExpression(c);
    c.expectWord('then');
    whens.push({ when, then: c.hooks.parseExpression(c) });
  }
  if (whens.length === 0) throw c.error("'when' expected");
  const otherwise = c.acceptWord('else') ? c.hooks.parseExpression(c) : undefined;
  if (c.atEnd()) throw c.error("unbalanced 'case'", caseToken);
  c.expectWord('end');
  c.leave();
  const base = { kind: 'case' as const, position: caseToken.start, whens };
  const withSubject = subject === undefined ? base : { ...base, subject };
  return otherwise === undefined ? withSubject : { ...withSubject, otherwise };
}

function parseCast(c: ParseCursor): CastExpr {
  const castToken = c.next();
  const open = c.next();
  c.enter(castToken);
  const operand = c.hooks.parseExpression(c);
  if (!c.acceptWord('as')) throw c.error("'as' missing");
  const type = parseTypeName(c);
  expectClose(c, open);
  c.leave();
  return {
    kind: 'cast', position: castToken.start, operand, typeName: type.name, typePosition: type.position, shorthand: false,
  };
}

/** `timestamp '2024-01-01'`: PostgreSQL's typed constant, a cast of the string. */
function parseTypedConstant(c: ParseCursor, typeToken: Token): CastExpr {
  c.next();
  const value = c.next();
  return {
    kind: 'cast', position: typeToken.start, operand: literal(value, 'STRING', value.value),
    typeName: typeToken.text.toUpperCase(), typePosition: typeToken.start, shorthand: false,
  };
}

/** `[e, e, ...]` after ARRAY; a nested `[...]` element is an array too. */
function parseArrayElements(c: ParseCursor, position: number): ArrayExpr {
  const open = c.expectOperator('[');
  c.enter(open);
  const elements: Expr[] = [];
  if (!c.isOperator(']')) {
    do {
      elements.push(c.isOperator('[') ? parseArrayElements(c, c.peek().start) : parseArgument(c));
    } while (c.acceptOperator(','));
  }
  c.expectOperator(']');
  c.leave();
  return { kind: 'array', position, elements };
}
