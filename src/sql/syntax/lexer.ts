// SQL text → tokens: identifiers, "quoted identifiers", 'strings', numbers, operators; comments are skipped.
// Also interprets number tokens (INT/LONG/DOUBLE/FLOAT constants, `15m`-style durations) for the parser.
// Every token and every error position is a 0-based UTF-16 offset into the text; the list always ends with eof.
import { SqlError } from '../../core/errors.js';
import { assert } from '../../core/assert.js';
import { queryTextLengthMax } from '../../core/limits.js';
import type { Token, TokenKind } from './token.js';
import { ONE_CHAR_OPERATORS, TWO_CHAR_OPERATORS } from './token.js';

const CODE_0 = 48;
const CODE_9 = 57;

function isDigit(code: number): boolean {
  return code >= CODE_0 && code <= CODE_9;
}

function isHexDigit(code: number): boolean {
  return isDigit(code) || (code >= 65 && code <= 70) || (code >= 97 && code <= 102);
}

function isWhitespace(ch: string): boolean {
  return ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r' || /\s/.test(ch);
}

/** ASCII letters, `_`, `$`, and every non-ASCII character that is not whitespace (unicode names, emoji halves). */
function isIdentifierStart(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95 || code === 36
    || (code >= 0x80 && !isWhitespace(String.fromCharCode(code)));
}

function isIdentifierPart(code: number): boolean {
  return isIdentifierStart(code) || isDigit(code);
}

/** Offset of the first character at or after `from` that is not whitespace or inside a comment. */
export function skipTrivia(text: string, from: number): number {
  let i = from;
  while (i < text.length) {
    const ch = text[i];
    if (isWhitespace(ch)) {
      i++;
    } else if (ch === '-' && text[i + 1] === '-') {
      const eol = text.indexOf('\n', i + 2);
      i = eol < 0 ? text.length : eol + 1;
    } else if (ch === '/' && text[i + 1] === '*') {
      i = skipBlockComment(text, i);
    } else {
      break;
    }
  }
  return i;
}

/** Block comments nest, as in QuestDB; an unterminated one runs to the end of the text. Hints `/*+ ... *\/` are comments. */
function skipBlockComment(text: string, start: number): number {
  let depth = 0;
  let i = start;
  while (i < text.length) {
    if (text[i] === '/' && text[i + 1] === '*') {
      depth++;
      i += 2;
    } else if (text[i] === '*' && text[i + 1] === '/') {
      depth--;
      i += 2;
      if (depth === 0) return i;
    } else {
      i++;
    }
  }
  return text.length;
}

export function tokenize(text: string): Token[] {
  if (text.length > queryTextLengthMax) {
    throw new SqlError(`query text is too long [length=${text.length}, max=${queryTextLengthMax}]`,
      queryTextLengthMax, 'SVC_SQL_LIMIT');
  }
  const tokens: Token[] = [];
  let i = skipTrivia(text, 0);
  while (i < text.length) {
    const token = readToken(text, i);
    assert(token.end > token.start, 'every token consumes at least one character');
    tokens.push(token);
    i = skipTrivia(text, token.end);
  }
  tokens.push({ kind: 'eof', text: '', value: '', start: text.length, end: text.length });
  return tokens;
}

function makeToken(text: string, kind: TokenKind, start: number, end: number, value?: string): Token {
  const raw = text.slice(start, end);
  return { kind, text: raw, value: value ?? raw, start, end };
}

function readToken(text: string, start: number): Token {
  const ch = text[start];
  const code = text.charCodeAt(start);
  if (ch === "'") return readQuoted(text, start, 'string');
  if ((ch === 'E' || ch === 'e') && text[start + 1] === "'") return readEscapeString(text, start);
  if (ch === '"') return readQuoted(text, start, 'quotedIdentifier');
  if (isDigit(code) || (ch === '.' && isDigit(text.charCodeAt(start + 1)) && !endsOperand(text, start))) {
    return makeToken(text, 'number', start, scanNumber(text, start));
  }
  if (isIdentifierStart(code)) {
    let end = start + 1;
    while (end < text.length && isIdentifierPart(text.charCodeAt(end))) end++;
    return makeToken(text, 'identifier', start, end);
  }
  if (text.startsWith('!~*', start)) return makeToken(text, 'operator', start, start + 3);
  const two = text.slice(start, start + 2);
  if (TWO_CHAR_OPERATORS.has(two)) return makeToken(text, 'operator', start, start + 2);
  if (ONE_CHAR_OPERATORS.includes(ch)) return makeToken(text, 'operator', start, start + 1);
  if (ch === '#') return makeToken(text, 'number', start, scanGeohash(text, start));
  throw new SqlError(`unexpected character [${ch}]`, start);
}

/** `t.5` is not a number after a name: a `.` right after an identifier, quote or bracket belongs to that operand. */
function endsOperand(text: string, dot: number): boolean {
  if (dot === 0) return false;
  const prev = text.charCodeAt(dot - 1);
  return isIdentifierPart(prev) || prev === 34 || prev === 39 || prev === 41 || prev === 93;
}

/** Quoted string or identifier; a doubled quote inside stands for one quote character. */
function readQuoted(text: string, start: number, kind: 'string' | 'quotedIdentifier'): Token {
  const quote = text[start];
  let value = '';
  let i = start + 1;
  for (;;) {
    const close = text.indexOf(quote, i);
    if (close < 0) {
      throw new SqlError(kind === 'string' ? 'unclosed quoted string?' : 'unclosed quoted identifier?', start);
    }
    value += text.slice(i, close);
    if (text[close + 1] === quote) {
      value += quote;
      i = close + 2;
    } else {
      return makeToken(text, kind, start, close + 1, value);
    }
  }
}

const ESCAPES: Readonly<Record<string, string>> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f' };

/** PostgreSQL's escape string `E'a\nb'`: backslash escapes (\n \t \r \b \f, any other character stands for itself) and ''. */
function readEscapeString(text: string, start: number): Token {
  let value = '';
  let i = start + 2;
  for (;;) {
    if (i >= text.length) throw new SqlError('unclosed quoted string?', start);
    const ch = text[i];
    if (ch === '\\' && i + 1 < text.length) {
      const escaped = text[i + 1];
      value += ESCAPES[escaped] ?? escaped;
      i += 2;
    } else if (ch === "'" && text[i + 1] === "'") {
      value += "'";
      i += 2;
    } else if (ch === "'") {
      return makeToken(text, 'string', start, i + 1, value);
    } else {
      value += ch;
      i++;
    }
  }
}

/** Digits with `_` separators, optional fraction and exponent, then any letters glued on (`10L`, `3f`, `15m`). */
/** `#u33d`, `#u33d/20`, `##0101`: the hash characters and an optional `/bits` suffix; the parser validates. */
function scanGeohash(text: string, start: number): number {
  let i = start + 1;
  if (text[i] === '#') i++;
  while (i < text.length && isIdentifierPart(text.charCodeAt(i))) i++;
  if (text[i] === '/' && isDigit(text.charCodeAt(i + 1))) {
    i++;
    while (isDigit(text.charCodeAt(i))) i++;
  }
  return i;
}

function scanNumber(text: string, start: number): number {
  let i = start;
  if (text[i] === '0' && (text[i + 1] === 'x' || text[i + 1] === 'X') && isHexDigit(text.charCodeAt(i + 2))) {
    i += 2;
    while (isHexDigit(text.charCodeAt(i)) || text[i] === '_') i++;
  } else {
    while (isDigit(text.charCodeAt(i)) || text[i] === '_') i++;
    if (text[i] === '.' && text[i + 1] !== '.') {
      i++;
      while (isDigit(text.charCodeAt(i)) || text[i] === '_') i++;
    }
    const sign = text[i + 1] === '+' || text[i + 1] === '-' ? 1 : 0;
    if ((text[i] === 'e' || text[i] === 'E') && isDigit(text.charCodeAt(i + 1 + sign))) {
      i += 1 + sign;
      while (isDigit(text.charCodeAt(i))) i++;
    }
  }
  while (i < text.length && isIdentifierPart(text.charCodeAt(i))) i++;
  return i;
}

export interface NumericConstant {
  readonly literalType: 'INT' | 'LONG' | 'DOUBLE' | 'FLOAT';
  /** LONG: bigint; the others: number. */
  readonly value: number | bigint;
}

const INT_MAX = 2147483647n;
const LONG_MAX = 9223372036854775807n;
const DECIMAL_PATTERN = /^(\d*)(\.\d*)?([eE][+-]?\d+)?([A-Za-z]*)$/;

/**
 * The constant a number token stands for, or undefined when the text is not a numeric constant
 * (`15m` is a duration, `1x` is nothing). Integers are INT when they fit 32 bits, else LONG, else DOUBLE;
 * suffix L forces LONG, f FLOAT, d DOUBLE; a fraction or exponent makes a DOUBLE.
 */
export function readNumericConstant(token: Token): NumericConstant | undefined {
  assert(token.kind === 'number', 'numeric constants come from number tokens');
  const text = token.text.replaceAll('_', '');
  if (/^0[xX]/.test(text)) return readHexConstant(text.slice(2));
  const match = DECIMAL_PATTERN.exec(text);
  if (match === null) return undefined;
  const [, digits, fraction, exponent, suffix] = match;
  const isInteger = fraction === undefined && exponent === undefined;
  const numeric = text.slice(0, text.length - suffix.length);
  if (suffix === 'f' || suffix === 'F') return { literalType: 'FLOAT', value: Number(numeric) };
  if (suffix === 'd' || suffix === 'D') return { literalType: 'DOUBLE', value: Number(numeric) };
  if (!isInteger) return suffix === '' ? { literalType: 'DOUBLE', value: Number(numeric) } : undefined;
  const big = BigInt(digits);
  if (suffix === 'l' || suffix === 'L') return big <= LONG_MAX ? { literalType: 'LONG', value: big } : undefined;
  if (suffix !== '') return undefined;
  if (big <= INT_MAX) return { literalType: 'INT', value: Number(big) };
  if (big <= LONG_MAX) return { literalType: 'LONG', value: big };
  return { literalType: 'DOUBLE', value: Number(digits) };
}

/** `0x...`: INT when it fits 31 bits, LONG up to 16 hex digits (two's complement), longer is not supported. */
function readHexConstant(hex: string): NumericConstant | undefined {
  let suffixLong = false;
  let digits = hex;
  if (digits.endsWith('L') || digits.endsWith('l')) {
    suffixLong = true;
    digits = digits.slice(0, -1);
  }
  if (!/^[0-9a-fA-F]{1,16}$/.test(digits)) return undefined;
  const big = BigInt(`0x${digits}`);
  if (!suffixLong && big <= INT_MAX) return { literalType: 'INT', value: Number(big) };
  return { literalType: 'LONG', value: BigInt.asIntN(64, big) };
}

export interface DurationConstant {
  readonly count: number;
  /** The unit letters as written, case preserved (`m` minute vs `M` month). */
  readonly unit: string;
  /** Offset of the first unit letter. */
  readonly unitPosition: number;
}

/** `15m`, `1h`, `2d`: a positive integer with a letter unit glued on; undefined for any other number token. */
export function readDuration(token: Token): DurationConstant | undefined {
  const match = /^(\d[\d_]*)([A-Za-z]+)$/.exec(token.text);
  if (match === null) return undefined;
  const count = Number(match[1].replaceAll('_', ''));
  return { count, unit: match[2], unitPosition: token.start + match[1].length };
}
