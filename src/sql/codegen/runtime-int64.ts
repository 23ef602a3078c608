// Exact 64-bit integer arithmetic for generated code (as `rt.l*`), the slow path taken when a row's int64 operands
// or results leave ±(2^53 - 1), where doubles stop being exact. Values are BigInts held to Java's `long`: every
// result wraps to 64 bits and Long.MIN_VALUE is the null, so an overflow that lands on it reads as null, as in
// QuestDB (AddLongFunctionFactory and friends: a null operand gives null, division or modulo by zero gives null).
import { formatLong256 } from '../../types/long256.js';
import { formatTimestampNanos } from '../../types/timestamp-ns.js';

/** Long.MIN_VALUE: the null of every 64-bit integer type. */
export const LONG_NULL = -9223372036854775808n;
const LONG_MAX = 9223372036854775807n;
/** 2^63 as a double: the first double above Long.MAX_VALUE (which rounds to it). */
const TWO_POW_63 = 9223372036854775808;

function wrap(value: bigint): bigint {
  return BigInt.asIntN(64, value);
}

export const int64Runtime = {
  /** The exact value of an int64 expression-domain number (NaN, ±Infinity: null); fractions truncate. */
  lbig(value: number): bigint {
    return value !== value || value === Infinity || value === -Infinity ? LONG_NULL : BigInt(Math.trunc(value));
  },
  /** The expression-domain number of an exact value: null is NaN, others round to the nearest double. */
  lnum: (value: bigint): number => (value === LONG_NULL ? NaN : Number(value)),
  ladd: (a: bigint, b: bigint): bigint => (a === LONG_NULL || b === LONG_NULL ? LONG_NULL : wrap(a + b)),
  lsub: (a: bigint, b: bigint): bigint => (a === LONG_NULL || b === LONG_NULL ? LONG_NULL : wrap(a - b)),
  lmul: (a: bigint, b: bigint): bigint => (a === LONG_NULL || b === LONG_NULL ? LONG_NULL : wrap(a * b)),
  /** BigInt division truncates toward zero, like Java's; MIN / -1 wraps back to MIN (null). */
  ldiv: (a: bigint, b: bigint): bigint => (a === LONG_NULL || b === LONG_NULL || b === 0n ? LONG_NULL : wrap(a / b)),
  /** The remainder takes the dividend's sign, like Java's `%`. */
  lmod: (a: bigint, b: bigint): bigint => (a === LONG_NULL || b === LONG_NULL || b === 0n ? LONG_NULL : a % b),
  lneg: (a: bigint): bigint => (a === LONG_NULL ? LONG_NULL : -a),
  labs: (a: bigint): bigint => (a < 0n && a !== LONG_NULL ? -a : a),
  /**
   * Stands for the left operand of a comparison decided exactly: NaN when it is null, else the sign of a - b
   * (0 when b is null, whose own stand-in `lcmpRight` is then NaN), so `lcmp(a, b) OP lcmpRight(b)` has the
   * outcome, null rules included, of `a OP b` on the numbers.
   */
  lcmp(a: bigint, b: bigint): number {
    if (a === LONG_NULL) return NaN;
    if (b === LONG_NULL) return 0;
    return a < b ? -1 : a > b ? 1 : 0;
  },
  lcmpRight: (b: bigint): number => (b === LONG_NULL ? NaN : 0),
  /** Java's (int) narrowing; a null stays null. */
  ltoInt: (a: bigint): number => (a === LONG_NULL ? NaN : Number(BigInt.asIntN(32, a))),
  /** Java's (short) narrowing; null becomes 0 (SHORT has no null). */
  ltoShort: (a: bigint): number => (a === LONG_NULL ? 0 : Number(BigInt.asIntN(16, a))),
  ltoByte: (a: bigint): number => (a === LONG_NULL ? 0 : Number(BigInt.asIntN(8, a))),
  ltoText: (a: bigint): string | null => (a === LONG_NULL ? null : a.toString()),
  /** TIMESTAMP_NS text from its exact nanoseconds (nine fraction digits). */
  nsToText: (a: bigint): string | null => (a === LONG_NULL ? null : formatTimestampNanos(a)),
  /** TIMESTAMP_NS floored to µs (unit 1000n) or ms (unit 1000000n), toward minus infinity as QuestDB's driver. */
  nsFloorTo(a: bigint, unit: bigint): number {
    if (a === LONG_NULL) return NaN;
    const quotient = a / unit;
    return Number(a % unit < 0n ? quotient - 1n : quotient);
  },
  /** DOUBLE → LONG as QuestDB casts: truncation, null outside the long range (2^63 itself saturates to MAX). */
  dtoL(value: number): bigint {
    if (value !== value || value > TWO_POW_63 || value < -TWO_POW_63) return LONG_NULL;
    return value === TWO_POW_63 ? LONG_MAX : BigInt(Math.trunc(value));
  },
  /** Text → LONG once the double parse (which reports bad text) has passed: integer digits are read exactly. */
  textToL(text: string | null, parsed: number): bigint {
    if (text === null) return LONG_NULL;
    const trimmed = text.trim();
    return /^[+-]?\d+$/.test(trimmed) ? wrap(BigInt(trimmed)) : int64Runtime.lbig(parsed);
  },
  /** Starts the exact output of a projection at row `row`: the rows before it were exact as numbers. */
  lstartExact(numbers: Float64Array, row: number): BigInt64Array {
    const exact = new BigInt64Array(numbers.length);
    for (let k = 0; k < row; k++) exact[k] = int64Runtime.lbig(numbers[k]);
    return exact;
  },
  /** to_long256 over exact longs, l0 least significant; all four null is null. */
  toLong256Exact(l0: bigint, l1: bigint, l2: bigint, l3: bigint): string | null {
    if (l0 === LONG_NULL && l1 === LONG_NULL && l2 === LONG_NULL && l3 === LONG_NULL) return null;
    let value = 0n;
    for (const word of [l3, l2, l1, l0]) value = (value << 64n) | BigInt.asUintN(64, word);
    return formatLong256(value);
  },
  lnull: LONG_NULL,
};
