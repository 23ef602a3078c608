// Type names as written in casts and column definitions, returned upper-cased. The parser accepts any word
// (the binder decides whether the type exists); it only normalises the multi-token spellings:
// DOUBLE PRECISION → DOUBLE, GEOHASH(8c) → GEOHASH(8C), DECIMAL(10, 2) → DECIMAL(10,2), VARCHAR(20) → VARCHAR,
// TIMESTAMP WITH TIME ZONE → TIMESTAMP, and array suffixes DOUBLE[] / DOUBLE[][].
import type { ParseCursor } from './parse-cursor.js';
import type { Token } from './token.js';
import { DECIMAL_PRECISION_MAX, decimalDefaultScale } from '../../types/decimal.js';

export interface TypeName {
  readonly name: string;
  readonly position: number;
}

/** Words that turn a following 'string' into a typed constant: `timestamp '2024-01-01'` ≡ CAST('2024-01-01' AS TIMESTAMP). */
export const TYPED_CONSTANT_PREFIXES: ReadonlySet<string> = new Set([
  'boolean', 'byte', 'short', 'char', 'int', 'integer', 'long', 'float', 'double', 'date', 'timestamp',
  'timestamp_ns', 'symbol', 'string', 'varchar', 'uuid', 'ipv4', 'long256', 'binary', 'interval', 'decimal',
]);

/** Types whose `(n)` length is accepted for PostgreSQL compatibility and ignored. */
const LENGTH_IGNORED = new Set(['VARCHAR', 'CHAR', 'STRING', 'TEXT', 'CHARACTER']);

export function parseTypeName(c: ParseCursor): TypeName {
  const token = c.peek();
  if (token.kind !== 'identifier') throw c.error('type name expected', token);
  c.next();
  // `::pg_catalog.regclass`: PostgreSQL's types live in pg_catalog; the schema adds nothing here.
  if (token.text.toLowerCase() === 'pg_catalog' && c.isOperator('.') && c.peek(1).kind === 'identifier') {
    c.next();
    return parseTypeNameRest(c, c.next());
  }
  return parseTypeNameRest(c, token);
}

function parseTypeNameRest(c: ParseCursor, token: Token): TypeName {
  let name = token.text.toUpperCase();
  if (name === 'DOUBLE') c.acceptWord('precision');
  if (name === 'TIMESTAMP' && c.isWord('with') && c.isWord('time', 1) && c.isWord('zone', 2)) {
    c.next();
    c.next();
    c.next();
  }
  if (c.isOperator('(') && (name === 'DECIMAL' || name === 'NUMERIC')) {
    name = `${name}(${parseDecimalArguments(c, token).join(',')})`;
  } else if (c.isOperator('(') && (name === 'GEOHASH' || LENGTH_IGNORED.has(name))) {
    const args = parseTypeArguments(c);
    if (!LENGTH_IGNORED.has(name)) name = `${name}(${args.join(',')})`;
  }
  while (c.isOperator('[') && c.isOperator(']', 1) && c.peek().start === c.peek(-1).end) {
    c.next();
    c.next();
    name += '[]';
  }
  return { name, position: token.start };
}

/** `( arg [, arg] )` where each argument is a single number-like token (`8c`, `10`, `2`). */
function parseTypeArguments(c: ParseCursor): string[] {
  c.expectOperator('(');
  const args: string[] = [];
  do {
    const arg = c.peek();
    if (arg.kind !== 'number' && arg.kind !== 'identifier') throw c.error('type precision expected', arg);
    c.next();
    args.push(arg.text.toUpperCase());
  } while (c.acceptOperator(','));
  c.expectOperator(')');
  return args;
}

/**
 * `(p)` or `(p, s)` of DECIMAL with QuestDB's errors: each missing or non-numeric argument and a missing ')' are
 * reported at the token where it was expected (the last token read when the statement ends there).
 */
function parseDecimalArguments(c: ParseCursor, keyword: Token): string[] {
  c.expectOperator('(');
  const precision = decimalArgument(c, 'precision');
  const args = [precision];
  if (c.acceptOperator(',')) args.push(decimalArgument(c, 'scale'));
  if (!c.isOperator(')')) throw c.error("invalid DECIMAL type, missing ')'", lastTokenAtEnd(c));
  c.next();
  checkDecimalRange(c, args, keyword);
  return args;
}

/** Ranges are checked once the type is read whole, and reported at the type's keyword, as QuestDB does. */
function checkDecimalRange(c: ParseCursor, args: readonly string[], keyword: Token): void {
  const precision = Number(args[0]);
  const scale = args[1] === undefined ? decimalDefaultScale(precision) : Number(args[1]);
  if (precision <= 0) throw c.error(`Invalid decimal type. The precision (${precision}) must be greater than zero`, keyword);
  if (precision > DECIMAL_PRECISION_MAX) throw c.error(`Invalid decimal type. The precision (${precision}) must be less than ${DECIMAL_PRECISION_MAX}`, keyword);
  if (scale > precision) throw c.error(`Invalid decimal type. The precision (${precision}) must be greater than or equal to the scale (${scale})`, keyword);
}

function decimalArgument(c: ParseCursor, what: 'precision' | 'scale'): string {
  const token = c.peek();
  if (token.kind === 'eof' || (token.kind === 'operator' && (token.text === ')' || token.text === ','))) {
    throw c.error(`invalid DECIMAL type, missing ${what}`, lastTokenAtEnd(c));
  }
  if (token.kind !== 'number' || !/^[0-9]+$/.test(token.text)) throw c.error(`invalid DECIMAL type, ${what} must be a number`, token);
  c.next();
  return token.text;
}

function lastTokenAtEnd(c: ParseCursor): Token {
  const token = c.peek();
  return token.kind === 'eof' ? c.peek(-1) : token;
}
