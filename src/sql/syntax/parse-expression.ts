// Expression parser by precedence climbing. Binding strength, lowest first:
//   OR < AND < NOT < comparison (= != <> < <= > >= ~ !~ LIKE ILIKE IN BETWEEN IS) < | < ^ < & < || < + -
//   < * / % < unary - + ~ < postfix (::type, [index], AT TIME ZONE) < primary terms (parse-primary.ts).
// Binary operators are left-associative; `::` binds tighter than unary minus, as in PostgreSQL (-x::int = -(x::int)).
import type { BinaryOp, Expr, InExpr } from './ast.js';
import type { Token } from './token.js';
import { isReservedWord, wordOf } from './token.js';
import type { ParseCursor } from './parse-cursor.js';
import { expectClose, parseArgument, parseArguments } from './parse-cursor.js';
import { canStartOperand, parsePrimary } from './parse-primary.js';
import { parseTypeName } from './parse-type-name.js';

const PREC_OR = 1;
const PREC_AND = 2;
// NOT (3) is a prefix: its operand is everything that binds at least as tightly as a comparison.
const PREC_COMPARE = 4;
const PREC_BIT_OR = 5;
const PREC_BIT_XOR = 6;
const PREC_BIT_AND = 7;
const PREC_CONCAT = 8;
const PREC_ADD = 9;
const PREC_MULTIPLY = 10;

interface BinaryOperator {
  readonly op: BinaryOp;
  readonly precedence: number;
}

const SYMBOL_OPERATORS: ReadonlyMap<string, BinaryOperator> = new Map([
  ['=', { op: '=', precedence: PREC_COMPARE }], ['!=', { op: '!=', precedence: PREC_COMPARE }],
  ['<>', { op: '!=', precedence: PREC_COMPARE }], ['<', { op: '<', precedence: PREC_COMPARE }],
  ['<=', { op: '<=', precedence: PREC_COMPARE }], ['>', { op: '>', precedence: PREC_COMPARE }],
  ['>=', { op: '>=', precedence: PREC_COMPARE }], ['~', { op: '~', precedence: PREC_COMPARE }],
  ['!~', { op: '!~', precedence: PREC_COMPARE }], ['~*', { op: '~*', precedence: PREC_COMPARE }],
  ['!~*', { op: '!~*', precedence: PREC_COMPARE }], ['|', { op: '|', precedence: PREC_BIT_OR }],
  ['^', { op: '^', precedence: PREC_BIT_XOR }], ['&', { op: '&', precedence: PREC_BIT_AND }],
  ['||', { op: '||', precedence: PREC_CONCAT }], ['+', { op: '+', precedence: PREC_ADD }],
  ['-', { op: '-', precedence: PREC_ADD }], ['*', { op: '*', precedence: PREC_MULTIPLY }],
  ['/', { op: '/', precedence: PREC_MULTIPLY }], ['%', { op: '%', precedence: PREC_MULTIPLY }],
]);

type PendingOperator =
  | { readonly form: 'binary'; readonly op: BinaryOp; readonly precedence: number; readonly negated: boolean; readonly tokenCount?: number }
  | { readonly form: 'in' | 'between' | 'is' | 'within'; readonly precedence: number; readonly negated: boolean };

export function parseExpression(c: ParseCursor): Expr {
  c.enter(c.peek());
  const expr = parseBinary(c, PREC_OR);
  c.leave();
  return expr;
}

function parseBinary(c: ParseCursor, minPrecedence: number): Expr {
  let left = parseUnary(c);
  for (;;) {
    const pending = peekOperator(c);
    if (pending === undefined || pending.precedence < minPrecedence) return left;
    left = parseOperatorTail(c, left, pending);
  }
}

/** The operator at the cursor, if the expression continues; NOT counts only before IN, BETWEEN, LIKE, ILIKE. */
function peekOperator(c: ParseCursor): PendingOperator | undefined {
  const token = c.peek();
  if (token.kind === 'operator') {
    const symbol = SYMBOL_OPERATORS.get(token.text);
    return symbol === undefined ? undefined : { form: 'binary', ...symbol, negated: false };
  }
  let word = wordOf(token);
  if (word === 'operator') return peekOperatorSyntax(c);
  const negated = word === 'not';
  if (negated) word = wordOf(c.peek(1));
  switch (word) {
    case 'or': return negated ? undefined : { form: 'binary', op: 'or', precedence: PREC_OR, negated };
    case 'and': return negated ? undefined : { form: 'binary', op: 'and', precedence: PREC_AND, negated };
    case 'like': return { form: 'binary', op: negated ? 'not like' : 'like', precedence: PREC_COMPARE, negated };
    case 'ilike': return { form: 'binary', op: negated ? 'not ilike' : 'ilike', precedence: PREC_COMPARE, negated };
    case 'in': case 'between': return { form: word, precedence: PREC_COMPARE, negated };
    case 'is': return negated ? undefined : { form: 'is', precedence: PREC_COMPARE, negated };
    case 'within': return negated || !c.isOperator('(', 1) ? undefined : { form: 'within', precedence: PREC_COMPARE, negated };
    default: return undefined;
  }
}

/** `OPERATOR(pg_catalog.~)`: PostgreSQL's schema-qualified spelling of an operator, which psql writes. */
function peekOperatorSyntax(c: ParseCursor): PendingOperator | undefined {
  if (!c.isOperator('(', 1)) return undefined;
  let at = 2;
  if (c.peek(at).kind === 'identifier' && c.isOperator('.', at + 1)) at += 2;
  const symbol = c.peek(at);
  const operator = symbol.kind === 'operator' && c.isOperator(')', at + 1) ? SYMBOL_OPERATORS.get(symbol.text) : undefined;
  return operator === undefined ? undefined : { form: 'binary', ...operator, negated: false, tokenCount: at + 2 };
}

function parseOperatorTail(c: ParseCursor, left: Expr, pending: PendingOperator): Expr {
  const first = c.next();
  const keyword = pending.negated ? c.next() : first;
  switch (pending.form) {
    case 'binary': {
      for (let extra = 1; extra < (pending.tokenCount ?? 1); extra++) c.next();
      const right = parseOperand(c, pending.precedence + 1, keyword, 1);
      return { kind: 'binary', position: first.start, op: pending.op, left, right };
    }
    case 'in':
      return parseIn(c, left, pending.negated, keyword);
    case 'between': {
      const low = parseOperand(c, PREC_COMPARE + 1, keyword, 1);
      c.expectWord('and');
      const high = parseOperand(c, PREC_COMPARE + 1, keyword, 2);
      return { kind: 'between', position: keyword.start, operand: left, low, high, negated: pending.negated };
    }
    case 'is':
      return parseIs(c, left, keyword);
    case 'within':
      return parseWithin(c, left, keyword);
  }
}

/** An operand after `operator`; a missing one is QuestDB's "too few arguments" error at the operator. */
function parseOperand(c: ParseCursor, minPrecedence: number, operator: Token, found: number): Expr {
  const next = c.peek();
  // A reserved word falls through: parsePrimary reports it with the "enclosed in double quotes" message.
  if (!canStartOperand(next) && !(next.kind === 'identifier' && isReservedWord(next))) {
    throw c.error(`too few arguments for '${operator.text}' [found=${found},expected=${found + 1}]`, operator);
  }
  return parseBinary(c, minPrecedence);
}

function parseUnary(c: ParseCursor): Expr {
  const token = c.peek();
  const isNot = wordOf(token) === 'not';
  if (!isNot && !(token.kind === 'operator' && (token.text === '-' || token.text === '+' || token.text === '~'))) {
    return parsePostfix(c, parsePrimary(c));
  }
  c.next();
  c.enter(token);
  let operand: Expr;
  if (isNot) {
    operand = parseOperand(c, PREC_COMPARE, token, 0);
  } else {
    if (!canStartOperand(c.peek()) && c.peek().kind !== 'identifier') {
      throw c.error(`too few arguments for '${token.text}' [found=0,expected=1]`, token);
    }
    operand = parseUnary(c);
  }
  c.leave();
  const op = isNot ? 'not' : (token.text as '-' | '+' | '~');
  return { kind: 'unary', position: token.start, op, operand };
}

function parsePostfix(c: ParseCursor, operand: Expr): Expr {
  let expr = operand;
  for (;;) {
    const token = c.peek();
    if (c.isOperator('::')) {
      c.next();
      const type = parseTypeName(c);
      expr = {
        kind: 'cast', position: token.start, operand: expr, typeName: type.name, typePosition: type.position, shorthand: true,
      };
    } else if (c.isOperator('[')) {
      expr = parseArrayIndex(c, expr);
    } else if (c.isWord('collate') && (c.peek(1).kind === 'identifier' || c.peek(1).kind === 'quotedIdentifier')) {
      // `COLLATE pg_catalog.default` / `COLLATE "C"`: svc compares text one way only, so the collation is read and ignored.
      c.next();
      c.next();
      if (c.isOperator('.') && (c.peek(1).kind === 'identifier' || c.peek(1).kind === 'quotedIdentifier')) {
        c.next();
        c.next();
      }
    } else if (c.isWord('at') && c.isWord('time', 1) && c.isWord('zone', 2)) {
      // `ts AT TIME ZONE 'Europe/Berlin'` is QuestDB's to_timezone(ts, 'Europe/Berlin').
      c.next();
      c.next();
      c.next();
      const zone = parsePostfix(c, parsePrimary(c));
      expr = { kind: 'call', position: token.start, name: 'to_timezone', args: [expr, zone], star: false, distinct: false, ignoreNulls: false };
    } else {
      return expr;
    }
  }
}

function parseArrayIndex(c: ParseCursor, operand: Expr): Expr {
  const open = c.next();
  c.enter(open);
  if (c.isOperator(']')) throw c.error('empty brackets', open);
  const indexes: Expr[] = [];
  do {
    const index = parseArgument(c);
    indexes.push(c.isOperator(':') ? parseArraySlice(c, index) : index);
  } while (c.acceptOperator(','));
  c.expectOperator(']');
  c.leave();
  return { kind: 'arrayIndex', position: open.start, operand, indexes };
}

/**
 * `lo:hi` or `lo:` inside array brackets, as a call of the `:` operator (the binder turns it into a slice;
 * anywhere else it is an unknown function). Its position is the colon's, as QuestDB reports slice errors.
 */
function parseArraySlice(c: ParseCursor, lo: Expr): Expr {
  const colon = c.next();
  const args = c.isOperator(']') || c.isOperator(',') ? [lo] : [lo, parseArgument(c)];
  return { kind: 'call', position: colon.start, name: ':', args, star: false, distinct: false, ignoreNulls: false };
}

/** `x IN (a, b)`, `x IN (SELECT ...)`, and QuestDB's `ts IN '2024-01'` (one element, no parentheses). */
function parseIn(c: ParseCursor, operand: Expr, negated: boolean, inToken: Token): InExpr {
  const base = { kind: 'in' as const, position: inToken.start, operand, negated };
  if (!c.isOperator('(')) return { ...base, list: [parseOperand(c, PREC_COMPARE + 1, inToken, 1)] };
  const open = c.next();
  if (c.isWord('select') || c.isWord('with')) {
    const subquery = c.hooks.parseQuery(c);
    c.expectOperator(')');
    return { ...base, subquery };
  }
  if (c.isOperator(')')) throw c.error(`too few arguments for '${inToken.text}'`);
  c.enter(open);
  const list = parseArguments(c);
  expectClose(c, open);
  c.leave();
  return { ...base, list };
}

/** `g WITHIN (#p1, #p2)`: a call of `within` with the operand first. */
function parseWithin(c: ParseCursor, operand: Expr, withinToken: Token): Expr {
  const open = c.next();
  if (c.isOperator(')')) throw c.error('too few arguments', withinToken);
  c.enter(open);
  const list = parseArguments(c);
  expectClose(c, open);
  c.leave();
  return { kind: 'call', position: withinToken.start, name: 'within', args: [operand, ...list], star: false, distinct: false, ignoreNulls: false };
}

/** `IS [NOT] NULL`; `IS [NOT] TRUE|FALSE` is QuestDB's rewrite to `= true` / `!= true`. */
function parseIs(c: ParseCursor, operand: Expr, isToken: Token): Expr {
  const negated = c.acceptWord('not') !== undefined;
  const value = c.peek();
  const word = wordOf(value);
  if (word === 'null') {
    c.next();
    return { kind: 'isNull', position: isToken.start, operand, negated };
  }
  if (word === 'true' || word === 'false') {
    const right = parsePrimary(c);
    return { kind: 'binary', position: isToken.start, op: negated ? '!=' : '=', left: operand, right };
  }
  throw c.error(negated ? 'IS NOT must be followed by NULL, TRUE or FALSE' : 'IS must be followed by NULL, TRUE or FALSE', isToken);
}
