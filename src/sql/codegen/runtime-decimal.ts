// Runtime helpers of DECIMAL arithmetic, comparison and casts. Values are canonical decimal text of their type
// (types/decimal.ts) and null is null; the binder passes each operand's scale and the result's precision and
// scale as numbers, so a helper only rescales, computes exactly in BigInt and checks the result's precision.
import { sqlRuntimeError } from '../../core/errors.js';
import {
  DECIMAL_PRECISION_MAX, SHORT_DECIMAL_TEXT_CHARS_MAX, decimalUnscaled, divideRounded, fitsPrecision, formatDecimal, formatDecimalNumber,
  powerOfTen, readDecimalText, rescaleDecimal, shortDecimalUnscaled,
} from '../../types/decimal.js';

const SHORT = SHORT_DECIMAL_TEXT_CHARS_MAX;
const NUMBER_POWERS_OF_TEN = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

/**
 * a·10^(scale-scaleA) ± b·10^(scale-scaleB) in numbers when both texts are short and the result stays exact
 * (below 2^53); undefined sends the caller to the BigInt path.
 */
function shortSum(a: string, b: string, scaleA: number, scaleB: number, scale: number, sign: number): string | undefined {
  if (a.length > SHORT || b.length > SHORT) return undefined;
  const left = shortDecimalUnscaled(a) * (NUMBER_POWERS_OF_TEN[scale - scaleA] ?? NaN);
  const right = shortDecimalUnscaled(b) * (NUMBER_POWERS_OF_TEN[scale - scaleB] ?? NaN);
  if (!(Math.abs(left) <= Number.MAX_SAFE_INTEGER && Math.abs(right) <= Number.MAX_SAFE_INTEGER)) return undefined;
  const result = left + sign * right;
  return Math.abs(result) <= Number.MAX_SAFE_INTEGER ? formatDecimalNumber(result, scale) : undefined;
}

function overflow(operator: string, operation: string, position: number): Error {
  return sqlRuntimeError(`'${operator}' operation failed: Overflow in ${operation}: result exceeds maximum precision`, position);
}

/** The result of an operation, checked against the maximum precision (QuestDB's 256-bit decimal bound). */
function checked(unscaled: bigint, scale: number, operator: string, operation: string, position: number): string {
  if (!fitsPrecision(unscaled, DECIMAL_PRECISION_MAX)) throw overflow(operator, operation, position);
  return formatDecimal(unscaled, scale);
}

function inconvertible(value: string, from: string, to: string, position: number): Error {
  return sqlRuntimeError(`inconvertible value: ${value} [${from} -> ${to}]`, position);
}

export const decimalRuntime = {
  decAdd(a: string | null, b: string | null, scaleA: number, scaleB: number, scale: number, position: number): string | null {
    if (a === null || b === null) return null;
    const short = shortSum(a, b, scaleA, scaleB, scale, 1);
    if (short !== undefined) return short;
    const sum = rescaleDecimal(decimalUnscaled(a), scaleA, scale) + rescaleDecimal(decimalUnscaled(b), scaleB, scale);
    return checked(sum, scale, '+', 'addition', position);
  },
  decSub(a: string | null, b: string | null, scaleA: number, scaleB: number, scale: number, position: number): string | null {
    if (a === null || b === null) return null;
    const short = shortSum(a, b, scaleA, scaleB, scale, -1);
    if (short !== undefined) return short;
    const difference = rescaleDecimal(decimalUnscaled(a), scaleA, scale) - rescaleDecimal(decimalUnscaled(b), scaleB, scale);
    return checked(difference, scale, '-', 'subtraction', position);
  },
  /** The exact product has scaleA + scaleB digits; a result scale capped at the maximum rounds half-even. */
  decMul(a: string | null, b: string | null, scaleA: number, scaleB: number, scale: number, position: number): string | null {
    if (a === null || b === null) return null;
    if (a.length <= SHORT && b.length <= SHORT && scale === scaleA + scaleB) {
      const exact = shortDecimalUnscaled(a) * shortDecimalUnscaled(b);
      if (Math.abs(exact) <= Number.MAX_SAFE_INTEGER) return formatDecimalNumber(exact, scale);
    }
    const product = rescaleDecimal(decimalUnscaled(a) * decimalUnscaled(b), scaleA + scaleB, scale, 'half-even');
    return checked(product, scale, '*', 'multiplication', position);
  },
  /** a / b at the result scale, rounded half-even (QuestDB's RoundingMode.HALF_EVEN). */
  decDiv(a: string | null, b: string | null, scaleA: number, scaleB: number, scale: number, position: number): string | null {
    if (a === null || b === null) return null;
    let divisor = decimalUnscaled(b);
    if (divisor === 0n) throw sqlRuntimeError(`'/' operation failed: Division by zero`, position);
    // a·10^-sa / (b·10^-sb) = (a · 10^(scale + sb - sa)) / b, scaled by 10^-scale.
    let dividend = decimalUnscaled(a);
    const shift = scale + scaleB - scaleA;
    if (shift >= 0) dividend *= powerOfTen(shift);
    else divisor *= powerOfTen(-shift);
    if (divisor < 0n) {
      divisor = -divisor;
      dividend = -dividend;
    }
    return checked(divideRounded(dividend, divisor, 'half-even'), scale, '/', 'division', position);
  },
  decNeg: (a: string | null): string | null => (a === null ? null : a.startsWith('-') ? a.slice(1) : /^[0.]+$/.test(a) ? a : `-${a}`),
  decAbs: (a: string | null): string | null => (a === null || !a.startsWith('-') ? a : a.slice(1)),
  /** -1, 0 or 1; NaN when either side is null (every comparison with NaN is false). */
  decCompare(a: string | null, b: string | null, scaleA: number, scaleB: number): number {
    if (a === null || b === null) return NaN;
    // At most 15 digits each: the doubles of the two texts are exact enough to order and tell apart.
    if (a.length <= SHORT && b.length <= SHORT) {
      const left = Number(a);
      const right = Number(b);
      return left < right ? -1 : left > right ? 1 : 0;
    }
    const scale = Math.max(scaleA, scaleB);
    const left = rescaleDecimal(decimalUnscaled(a), scaleA, scale);
    const right = rescaleDecimal(decimalUnscaled(b), scaleB, scale);
    return left < right ? -1 : left > right ? 1 : 0;
  },
  /** Equality with null = null true, as `=` is for other types. */
  decEquals(a: string | null, b: string | null, scaleA: number, scaleB: number): boolean {
    if (a === null || b === null) return a === b;
    return decimalRuntime.decCompare(a, b, scaleA, scaleB) === 0;
  },
  /** round(d, n): half-up at n fraction digits (n <= scale), printed at the result scale. */
  decRound(a: string | null, scaleA: number, digits: number, scale: number, precision: number, position: number): string | null {
    if (a === null) return null;
    const rounded = rescaleDecimal(decimalUnscaled(a), scaleA, Math.min(digits, scaleA), 'half-up');
    const result = rescaleDecimal(rounded, Math.min(digits, scaleA), scale);
    if (!fitsPrecision(result, precision)) throw overflow('round', 'rounding', position);
    return formatDecimal(result, scale);
  },
  /** Between decimal types: rounds half-up when the scale shrinks; a value beyond the precision is an error. */
  decRescale(a: string | null, fromScale: number, scale: number, precision: number, from: string, to: string, position: number): string | null {
    if (a === null) return null;
    if (a.length <= SHORT && scale >= fromScale) {
      const widened = Math.abs(shortDecimalUnscaled(a) * (NUMBER_POWERS_OF_TEN[scale - fromScale] ?? NaN));
      // Below 2^53 the number is exact; it fits the precision below 10^precision (any precision past 15 holds it).
      if (widened <= Number.MAX_SAFE_INTEGER && widened < (NUMBER_POWERS_OF_TEN[precision] ?? Infinity)) {
        return formatDecimalNumber(shortDecimalUnscaled(a) * NUMBER_POWERS_OF_TEN[scale - fromScale], scale);
      }
    }
    const result = rescaleDecimal(decimalUnscaled(a), fromScale, scale);
    if (!fitsPrecision(result, precision)) throw inconvertible(a, from, to, position);
    return formatDecimal(result, scale);
  },
  /** An integer or floating value (NaN = null) as a decimal; doubles go through their shortest decimal text. */
  decFromNumber(x: number, scale: number, precision: number, from: string, to: string, position: number): string | null {
    if (x !== x) return null;
    if (!Number.isFinite(x)) throw inconvertible(String(x), from, to, position);
    const read = Number.isInteger(x) && Math.abs(x) <= Number.MAX_SAFE_INTEGER ? { unscaled: BigInt(x), scale: 0 } : readDecimalText(String(x));
    if (read === undefined) throw inconvertible(String(x), from, to, position);
    const result = rescaleDecimal(read.unscaled, read.scale, scale);
    if (!fitsPrecision(result, precision)) throw inconvertible(String(x), from, to, position);
    return formatDecimal(result, scale);
  },
  decFromText(text: string | null, scale: number, precision: number, from: string, to: string, position: number): string | null {
    if (text === null || text.length === 0) return null;
    const read = readDecimalText(text);
    if (read === undefined) throw sqlRuntimeError(`inconvertible value: \`${text}\` [${from} -> ${to}]`, position);
    const result = rescaleDecimal(read.unscaled, read.scale, scale);
    if (!fitsPrecision(result, precision)) throw sqlRuntimeError(`inconvertible value: \`${text}\` [${from} -> ${to}]`, position);
    return formatDecimal(result, scale);
  },
  /** Decimal → integer type: the fraction is dropped (toward zero); out of the target's range is an error. */
  decToInteger(a: string | null, scale: number, min: number, max: number, nullValue: number, from: string, to: string, position: number): number {
    if (a === null) return nullValue;
    const whole = rescaleDecimal(decimalUnscaled(a), scale, 0, 'down');
    if (whole < BigInt(min) || whole > BigInt(max)) throw inconvertible(a, from, to, position);
    return Number(whole);
  },
  decToDouble: (a: string | null): number => (a === null ? NaN : Number(a)),
};
