// Numbers of the line protocol read straight from the request bytes, without building a string for the
// common forms: integers of up to 15 digits and decimals whose digits fit a double exactly (Clinger's fast
// path: an exact integer times or divided by an exact power of ten rounds once, so the result is the correctly
// rounded double). Anything longer takes the exact slow path through a string. Bad text throws IlpValueError;
// the line parser adds the line number.
import { IlpValueError } from './ilp-errors.js';

const CHAR_0 = 48;
const CHAR_9 = 57;
const CHAR_MINUS = 45;
const CHAR_PLUS = 43;
const CHAR_DOT = 46;
const CHAR_E = 101;
const CHAR_UPPER_E = 69;
const TWO_POW_32 = 4294967296;
const POWERS_OF_TEN = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22];
/** Digits that always fit a double exactly (10^15 < 2^53). */
const EXACT_DIGITS_MAX = 15;
/** Digits of the longest signed 64-bit integer. */
const INT64_DIGITS_MAX = 19;
const TWO_POW_53 = 9007199254740992;
const INT64_MAX = (1n << 63n) - 1n;
const INT64_MIN = -(1n << 63n);
const DOUBLE_TEXT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const DOUBLE_WORDS = new Map<string, number>([
  ['NaN', NaN], ['nan', NaN], ['Infinity', Infinity], ['+Infinity', Infinity], ['-Infinity', -Infinity],
  ['inf', Infinity], ['+inf', Infinity], ['-inf', -Infinity],
]);

function latin1(bytes: Uint8Array, start: number, end: number): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('latin1');
}

/** A 64-bit integer as two int32 words, as storage holds it; `number` is its value when exact (|v| ≤ 2^53), else NaN. */
export interface Int64Words {
  low: number;
  high: number;
  number: number;
}

/**
 * Parses `[-]digits` in [start, end) into `out`. Throws when the text is not an integer or is outside the
 * signed 64-bit range.
 */
export function parseInt64(bytes: Uint8Array, start: number, end: number, out: Int64Words): void {
  let at = start;
  const negative = bytes[at] === CHAR_MINUS;
  if (negative || bytes[at] === CHAR_PLUS) at++;
  if (at === end) throw new IlpValueError('invalid integer: no digits');
  if (end - at <= INT64_DIGITS_MAX) {
    let value = 0;
    for (; at < end; at++) {
      const digit = bytes[at] - CHAR_0;
      if (digit < 0 || digit > 9) throw new IlpValueError(`invalid integer: ${JSON.stringify(latin1(bytes, start, end))}`);
      value = value * 10 + digit;
    }
    // Every partial value below 2^53 is exact, and rounding never takes a larger one below 2^53: so a result
    // below 2^53 is the exact value. Larger ones (rare: 64-bit ids) take the exact path.
    if (value < TWO_POW_53) {
      setNumber(out, negative ? -value : value);
      return;
    }
  }
  parseInt64Slow(bytes, start, end, out);
}

function setNumber(out: Int64Words, value: number): void {
  const high = Math.floor(value / TWO_POW_32);
  out.low = (value - high * TWO_POW_32) | 0;
  out.high = high | 0;
  out.number = value;
}

function parseInt64Slow(bytes: Uint8Array, start: number, end: number, out: Int64Words): void {
  const text = latin1(bytes, start, end);
  if (!/^[+-]?\d+$/.test(text)) throw new IlpValueError(`invalid integer: ${JSON.stringify(text.slice(0, 64))}`);
  const value = BigInt(text);
  if (value > INT64_MAX || value < INT64_MIN) throw new IlpValueError(`integer out of the 64-bit range: ${text.slice(0, 64)}`);
  out.low = Number(BigInt.asIntN(32, value));
  out.high = Number(BigInt.asIntN(32, value >> 32n));
  const asNumber = Number(value);
  out.number = Math.abs(asNumber) <= Number.MAX_SAFE_INTEGER ? asNumber : NaN;
}

/** Parses a decimal or scientific number, NaN or ±Infinity (protocol text form of a DOUBLE field). */
export function parseDouble(bytes: Uint8Array, start: number, end: number): number {
  let at = start;
  const negative = bytes[at] === CHAR_MINUS;
  if (negative || bytes[at] === CHAR_PLUS) at++;
  let mantissa = 0;
  let significant = 0;
  let exponent = 0;
  let digits = 0;
  for (; at < end; at++) {
    const digit = bytes[at] - CHAR_0;
    if (digit < 0 || digit > 9) break;
    mantissa = mantissa * 10 + digit;
    if (mantissa !== 0) significant++;
    digits++;
  }
  if (at < end && bytes[at] === CHAR_DOT) {
    for (at++; at < end; at++) {
      const digit = bytes[at] - CHAR_0;
      if (digit < 0 || digit > 9) break;
      mantissa = mantissa * 10 + digit;
      if (mantissa !== 0) significant++;
      exponent--;
      digits++;
    }
  }
  if (digits > 0 && at < end && (bytes[at] === CHAR_E || bytes[at] === CHAR_UPPER_E)) {
    at++;
    const negativeExponent = bytes[at] === CHAR_MINUS;
    if (negativeExponent || bytes[at] === CHAR_PLUS) at++;
    let written = 0;
    let value = 0;
    for (; at < end && written < 6; at++, written++) {
      const digit = bytes[at] - CHAR_0;
      if (digit < 0 || digit > 9) break;
      value = value * 10 + digit;
    }
    if (written === 0) return parseDoubleSlow(bytes, start, end);
    exponent += negativeExponent ? -value : value;
  }
  if (at !== end || digits === 0 || significant > EXACT_DIGITS_MAX || exponent < -22 || exponent > 22) return parseDoubleSlow(bytes, start, end);
  const value = exponent < 0 ? mantissa / POWERS_OF_TEN[-exponent] : mantissa * POWERS_OF_TEN[exponent];
  return negative ? -value : value;
}

function parseDoubleSlow(bytes: Uint8Array, start: number, end: number): number {
  const text = latin1(bytes, start, end);
  const word = DOUBLE_WORDS.get(text);
  if (word !== undefined) return word;
  if (!DOUBLE_TEXT.test(text)) throw new IlpValueError(`invalid number: ${JSON.stringify(text.slice(0, 64))}`);
  return Number(text);
}

/** Divisors and factors that turn a timestamp in a unit into microseconds. */
export type TimestampUnit = 'ns' | 'us' | 'ms' | 's' | 'm' | 'h';

const MICROS_PER_UNIT: Readonly<Record<Exclude<TimestampUnit, 'ns'>, number>> = { us: 1, ms: 1e3, s: 1e6, m: 6e7, h: 3.6e9 };

/**
 * An integer timestamp in `unit` as epoch microseconds (nanoseconds are truncated toward zero, as QuestDB's
 * division does). Nanosecond values have 19 digits today: the last three are dropped before parsing.
 */
export function parseTimestampMicros(bytes: Uint8Array, start: number, end: number, unit: TimestampUnit, scratch: Int64Words): number {
  if (unit === 'ns') {
    const negative = bytes[start] === CHAR_MINUS;
    const digitsStart = negative || bytes[start] === CHAR_PLUS ? start + 1 : start;
    if (digitsStart === end) throw new IlpValueError('invalid timestamp: no digits');
    const first = bytes[digitsStart];
    // parseInt64 below would take a second sign (`--5000n`) and undo the first.
    if (first < CHAR_0 || first > CHAR_9) throw new IlpValueError(`invalid timestamp: ${JSON.stringify(latin1(bytes, start, end))}`);
    for (let at = Math.max(digitsStart, end - 3); at < end; at++) {
      const code = bytes[at];
      if (code < CHAR_0 || code > CHAR_9) throw new IlpValueError(`invalid timestamp: ${JSON.stringify(latin1(bytes, start, end))}`);
    }
    if (end - digitsStart <= 3) return 0;
    parseInt64(bytes, digitsStart, end - 3, scratch);
    // Microseconds past 2^53 (after the year 2255) are not exact as a number: NaN would read as "no timestamp".
    if (scratch.number !== scratch.number) throw new IlpValueError(`timestamp out of range: ${latin1(bytes, start, end).slice(0, 64)}`);
    return negative ? -scratch.number : scratch.number;
  }
  parseInt64(bytes, start, end, scratch);
  const micros = scratch.number * MICROS_PER_UNIT[unit];
  if (!Number.isSafeInteger(micros)) throw new IlpValueError(`timestamp out of range: ${latin1(bytes, start, end).slice(0, 64)}`);
  return micros;
}
