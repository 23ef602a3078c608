// The common forms of line protocol values written straight into a column's typed array: a plain integer
// `123i` into a LONG column, a plain decimal `1.25` into a DOUBLE column, the digits of a designated
// timestamp. Each reader returns -1 for anything else (an exponent, a sign it does not take, too many digits,
// a value that ends with the bytes at hand), and the caller parses that value the general way, which also
// raises the errors: so these readers never decide what is valid, only what is plain.
import type { FixedColumnBuilder } from './column-builder.js';
import { PLAIN_DOUBLE, PLAIN_LONG, type IlpColumn, type IlpTableBuilder } from './ilp-table-builder.js';

const CHAR_0 = 48;
const CHAR_MINUS = 45;
const CHAR_DOT = 46;
const CHAR_I = 105;
const EQUALS = 61;
const LF = 10;
const CR = 13;
const SPACE = 32;
const COMMA = 44;
const TWO_POW_32 = 4294967296;
/** Digits that always fit a double exactly (10^15 < 2^53): the value and one division by a power of ten round once. */
const EXACT_DIGITS_MAX = 15;
const POWERS_OF_TEN = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

function isDelimiter(code: number): boolean {
  return code === COMMA || code === SPACE || code === LF || code === CR;
}

/** `[-]digits i` then a delimiter, at `at`, appended to a LONG builder; returns the delimiter's position or -1. */
export function appendPlainLong(builder: FixedColumnBuilder, data: Uint8Array, at: number): number {
  let k = at;
  const negative = data[k] === CHAR_MINUS;
  if (negative) k++;
  const digitsStart = k;
  let value = 0;
  for (; k < data.length; k++) {
    const digit = data[k] - CHAR_0;
    if (digit < 0 || digit > 9) break;
    value = value * 10 + digit;
  }
  const digits = k - digitsStart;
  if (digits === 0 || digits > EXACT_DIGITS_MAX || k + 1 >= data.length || data[k] !== CHAR_I || !isDelimiter(data[k + 1])) return -1;
  const signed = negative ? -value : value;
  const high = Math.floor(signed / TWO_POW_32);
  // next() first: it may grow the builder, which replaces its typed views.
  const index = builder.next();
  builder.i32[index * 2] = (signed - high * TWO_POW_32) | 0;
  builder.i32[index * 2 + 1] = high | 0;
  return k + 1;
}

/** `[-]digits[.digits]` then a delimiter, at `at`, appended to a DOUBLE builder; returns the delimiter's position or -1. */
export function appendPlainDouble(builder: FixedColumnBuilder, data: Uint8Array, at: number): number {
  let k = at;
  const negative = data[k] === CHAR_MINUS;
  if (negative) k++;
  let mantissa = 0;
  let digits = 0;
  let fraction = 0;
  for (; k < data.length; k++) {
    const digit = data[k] - CHAR_0;
    if (digit < 0 || digit > 9) break;
    mantissa = mantissa * 10 + digit;
    digits++;
  }
  if (k < data.length && data[k] === CHAR_DOT) {
    for (k++; k < data.length; k++) {
      const digit = data[k] - CHAR_0;
      if (digit < 0 || digit > 9) break;
      mantissa = mantissa * 10 + digit;
      fraction++;
    }
  }
  // A value without digits (`.`, `-`) or with digits a double cannot hold exactly takes the general path.
  if (digits + fraction === 0 || digits + fraction > EXACT_DIGITS_MAX || k >= data.length || !isDelimiter(data[k])) return -1;
  const value = mantissa / POWERS_OF_TEN[fraction];
  const index = builder.next();
  builder.f64[index] = negative ? -value : value;
  return k;
}

/** Where the run of ASCII digits at `at` ends. */
export function digitsEnd(data: Uint8Array, at: number): number {
  let k = at;
  while (k < data.length && data[k] >= CHAR_0 && data[k] <= CHAR_0 + 9) k++;
  return k;
}

/** The value of the ASCII digits [start, end) (at most 16 of them, so the caller checks it against 2^53). */
export function digitsValue(data: Uint8Array, start: number, end: number): number {
  let value = 0;
  for (let k = start; k < end; k++) value = value * 10 + (data[k] - CHAR_0);
  return value;
}

/**
 * A plain LONG or DOUBLE value at `at` written straight into its column when the column fits one and has no
 * value in this row yet; returns the delimiter's position, or -1 for the general path.
 */
export function appendPlainValue(table: IlpTableBuilder, column: IlpColumn, data: Uint8Array, at: number): number {
  const builder = column.builder;
  if (builder.kind !== 'fixed' || builder.length > table.rowCount) return -1;
  if (column.plainKind === PLAIN_LONG) return appendPlainLong(builder, data, at);
  if (column.plainKind === PLAIN_DOUBLE) return appendPlainDouble(builder, data, at);
  return -1;
}

/**
 * Where the `=` after a key is, when the key at `from` spells the column's name exactly (so one pass both finds
 * the key and identifies its column), compared four bytes at a time; -1 otherwise, and the caller scans the key
 * the general way. `view` views `data`.
 */
export function plainKeyEnd(column: IlpColumn, view: DataView, data: Uint8Array, from: number): number {
  const name = column.nameBytes;
  const length = name.length;
  if (from + length >= data.length || data[from + length] !== EQUALS) return -1;
  const words = column.nameWords;
  for (let k = 0; k < words.length; k++) if (view.getInt32(from + k * 4, true) !== words[k]) return -1;
  for (let k = words.length * 4; k < length; k++) if (name[k] !== data[from + k]) return -1;
  return from + length;
}
