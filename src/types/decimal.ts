// DECIMAL(p, s) as QuestDB 9.2 has it: precision 1..76 digits, scale 0..p, stored as a two's complement
// integer of the unscaled value in 1, 2, 4, 8, 16 or 32 little-endian bytes chosen by precision; the type's
// minimum value is its null. While a query runs a value is held as its canonical text: an optional '-', the
// integer digits (at least one) and, when s > 0, '.' and exactly s fraction digits ("12.30", "-0.05", "7").
import { assert } from '../core/assert.js';

export type DecimalType = `DECIMAL(${number},${number})`;

export const DECIMAL_PRECISION_MAX = 76;
/** `DECIMAL` without arguments is DECIMAL(18,3) (QuestDB's DECIMAL_DEFAULT_TYPE). */
export const DECIMAL_DEFAULT_PRECISION = 18;
export const DECIMAL_DEFAULT_SCALE = 3;

/** The scale of `DECIMAL(p)`: 0 below 8 digits, else 3 (QuestDB's SqlUtil.parseDecimalColumnType). */
export function decimalDefaultScale(precision: number): number {
  return precision < 8 ? 0 : DECIMAL_DEFAULT_SCALE;
}

const DECIMAL_TYPE_PATTERN = /^DECIMAL\((\d+),(\d+)\)$/;

export function isDecimalType(type: string): type is DecimalType {
  const match = DECIMAL_TYPE_PATTERN.exec(type);
  if (match === null) return false;
  const precision = Number(match[1]);
  const scale = Number(match[2]);
  return precision >= 1 && precision <= DECIMAL_PRECISION_MAX && scale <= precision;
}

export function decimalTypeOf(precision: number, scale: number): DecimalType {
  assert(Number.isInteger(precision) && precision >= 1 && precision <= DECIMAL_PRECISION_MAX, 'decimal precision is validated before a type is made');
  assert(Number.isInteger(scale) && scale >= 0 && scale <= precision, 'decimal scale is validated before a type is made');
  return `DECIMAL(${precision},${scale})`;
}

interface PrecisionScale { readonly precision: number; readonly scale: number }

const precisionScaleCache = new Map<string, PrecisionScale>();

function precisionScaleOf(type: DecimalType): PrecisionScale {
  let cached = precisionScaleCache.get(type);
  if (cached === undefined) {
    const match = DECIMAL_TYPE_PATTERN.exec(type);
    assert(match !== null, 'decimal types are made by decimalTypeOf');
    cached = { precision: Number(match[1]), scale: Number(match[2]) };
    precisionScaleCache.set(type, cached);
  }
  return cached;
}

export function decimalPrecision(type: DecimalType): number {
  return precisionScaleOf(type).precision;
}

export function decimalScale(type: DecimalType): number {
  return precisionScaleOf(type).scale;
}

/** Storage bytes by precision: DECIMAL8 (1-2 digits), 16 (3-4), 32 (5-9), 64 (10-18), 128 (19-38), 256 (39-76). */
export function decimalWidthBytes(precision: number): number {
  if (precision <= 2) return 1;
  if (precision <= 4) return 2;
  if (precision <= 9) return 4;
  if (precision <= 18) return 8;
  if (precision <= 38) return 16;
  return 32;
}

const POWERS_OF_TEN: bigint[] = [];
for (let k = 0, power = 1n; k <= 2 * DECIMAL_PRECISION_MAX + 1; k++, power *= 10n) POWERS_OF_TEN.push(power);

export function powerOfTen(exponent: number): bigint {
  const power = POWERS_OF_TEN[exponent];
  assert(power !== undefined, 'decimal exponents stay within twice the maximum precision');
  return power;
}

/** Whether an unscaled value has at most `precision` digits. */
export function fitsPrecision(unscaled: bigint, precision: number): boolean {
  const limit = powerOfTen(precision);
  return unscaled < limit && unscaled > -limit;
}

/** The unscaled value of a canonical decimal text of the given scale. */
export function decimalUnscaled(text: string): bigint {
  return BigInt(text.replace('.', ''));
}

/** Canonical text of an unscaled value at a scale. */
export function formatDecimal(unscaled: bigint, scale: number): string {
  const negative = unscaled < 0n;
  const digits = (negative ? -unscaled : unscaled).toString();
  if (scale === 0) return negative ? `-${digits}` : digits;
  const padded = digits.length <= scale ? '0'.repeat(scale - digits.length + 1) + digits : digits;
  const text = `${padded.slice(0, padded.length - scale)}.${padded.slice(padded.length - scale)}`;
  return negative ? `-${text}` : text;
}

/**
 * Canonical text of an unscaled value held exactly in a number (|value| <= 2^53 - 1): the same text as
 * formatDecimal, without a BigInt (the common case of values read from DECIMAL8..DECIMAL64 columns).
 */
export function formatDecimalNumber(unscaled: number, scale: number): string {
  if (scale === 0) return String(unscaled);
  const negative = unscaled < 0;
  const digits = String(negative ? -unscaled : unscaled);
  const padded = digits.length <= scale ? '0'.repeat(scale - digits.length + 1) + digits : digits;
  const cut = padded.length - scale;
  const text = `${padded.slice(0, cut)}.${padded.slice(cut)}`;
  return negative ? `-${text}` : text;
}

/**
 * Canonical texts this short (at most 15 characters, so at most 15 digits) have an unscaled value and a double
 * value that numbers hold exactly and in order: the fast paths of arithmetic, comparison and sums use them.
 */
export const SHORT_DECIMAL_TEXT_CHARS_MAX = 15;

/** The unscaled value of a canonical text of at most SHORT_DECIMAL_TEXT_CHARS_MAX characters, as a number. */
export function shortDecimalUnscaled(text: string): number {
  const dot = text.indexOf('.');
  return Number(dot < 0 ? text : text.slice(0, dot) + text.slice(dot + 1));
}

export type DecimalRounding = 'half-up' | 'half-even' | 'down';

/** `numerator / denominator` rounded to an integer (denominator > 0). */
export function divideRounded(numerator: bigint, denominator: bigint, rounding: DecimalRounding): bigint {
  assert(denominator > 0n, 'decimal division rounds by a positive divisor');
  const quotient = numerator / denominator;
  const remainder = numerator % denominator;
  if (remainder === 0n || rounding === 'down') return quotient;
  const twice = (remainder < 0n ? -remainder : remainder) * 2n;
  const away = numerator < 0n ? -1n : 1n;
  if (twice > denominator) return quotient + away;
  if (twice < denominator) return quotient;
  if (rounding === 'half-up') return quotient + away;
  return quotient % 2n === 0n ? quotient : quotient + away;
}

/** An unscaled value moved from one scale to another, rounding when the scale shrinks. */
export function rescaleDecimal(unscaled: bigint, fromScale: number, toScale: number, rounding: DecimalRounding = 'half-up'): bigint {
  if (toScale === fromScale) return unscaled;
  if (toScale > fromScale) return unscaled * powerOfTen(toScale - fromScale);
  return divideRounded(unscaled, powerOfTen(fromScale - toScale), rounding);
}

const DECIMAL_TEXT_PATTERN = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d{1,4}))?[mM]?$/;

/** Text such as `-12.5`, `1e3`, `.25m` as an exact unscaled value with its scale; undefined when not a number. */
export function readDecimalText(text: string): { readonly unscaled: bigint; readonly scale: number } | undefined {
  const match = DECIMAL_TEXT_PATTERN.exec(text.trim());
  if (match === null) return undefined;
  const [, sign = '', whole = '', fraction = '', exponentText] = match;
  if (whole.length === 0 && fraction.length === 0) return undefined;
  const exponent = exponentText === undefined ? 0 : Number(exponentText);
  let scale = fraction.length - exponent;
  let unscaled = BigInt(`${whole}${fraction}` || '0');
  if (scale < 0) {
    if (-scale > 2 * DECIMAL_PRECISION_MAX) return undefined;
    unscaled *= powerOfTen(-scale);
    scale = 0;
  }
  // Scales past what any rescale can reach (5e-324, or a fraction of hundreds of digits): trailing zeros go,
  // and a value that still needs such a scale is no decimal a column can hold.
  while (scale > 2 * DECIMAL_PRECISION_MAX && unscaled % 10n === 0n) {
    unscaled /= 10n;
    scale--;
  }
  if (scale > 2 * DECIMAL_PRECISION_MAX) return undefined;
  return { unscaled: sign === '-' ? -unscaled : unscaled, scale };
}

/** The DECIMAL type of an `m` literal: its fraction digits as scale, its significant digits (at least the scale) as precision. */
export function decimalLiteralType(unscaled: bigint, scale: number): DecimalType | undefined {
  const digits = (unscaled < 0n ? -unscaled : unscaled).toString().length;
  const precision = Math.max(digits, scale, 1);
  return precision > DECIMAL_PRECISION_MAX ? undefined : decimalTypeOf(precision, scale);
}

/** Text as the canonical text of a DECIMAL type; undefined when it is not a number or does not fit. */
export function decimalFromText(text: string, type: DecimalType): string | undefined {
  const read = readDecimalText(text);
  if (read === undefined) return undefined;
  const scale = decimalScale(type);
  const unscaled = rescaleDecimal(read.unscaled, read.scale, scale);
  return fitsPrecision(unscaled, decimalPrecision(type)) ? formatDecimal(unscaled, scale) : undefined;
}

function nullOfWidth(widthBytes: number): bigint {
  return -(1n << BigInt(widthBytes * 8 - 1));
}

/** The stored value at byte `offset`: null for the width's minimum (QuestDB's DECIMAL null). */
export function readDecimalUnscaled(bytes: Buffer, offset: number, widthBytes: number): bigint | null {
  let value: bigint;
  switch (widthBytes) {
    case 1: return bytes.readInt8(offset) === -128 ? null : BigInt(bytes.readInt8(offset));
    case 2: return bytes.readInt16LE(offset) === -32768 ? null : BigInt(bytes.readInt16LE(offset));
    case 4: return bytes.readInt32LE(offset) === -2147483648 ? null : BigInt(bytes.readInt32LE(offset));
    case 8: value = bytes.readBigInt64LE(offset); break;
    default: {
      value = 0n;
      for (let word = widthBytes / 8 - 1; word >= 0; word--) value = (value << 64n) | bytes.readBigUInt64LE(offset + word * 8);
      value = BigInt.asIntN(widthBytes * 8, value);
    }
  }
  return value === nullOfWidth(widthBytes) ? null : value;
}

export function writeDecimalUnscaled(bytes: Buffer, offset: number, widthBytes: number, unscaled: bigint | null): void {
  const value = unscaled ?? nullOfWidth(widthBytes);
  switch (widthBytes) {
    case 1: bytes.writeInt8(Number(value), offset); return;
    case 2: bytes.writeInt16LE(Number(value), offset); return;
    case 4: bytes.writeInt32LE(Number(value), offset); return;
    case 8: bytes.writeBigInt64LE(value, offset); return;
    default: {
      let rest = BigInt.asUintN(widthBytes * 8, value);
      for (let word = 0; word < widthBytes / 8; word++) {
        bytes.writeBigUInt64LE(rest & 0xffffffffffffffffn, offset + word * 8);
        rest >>= 64n;
      }
    }
  }
}

/** Parses DECIMAL, DECIMAL(p) or DECIMAL(p,s) (upper-cased); undefined for other names or bad arguments. */
export function parseDecimalTypeName(upper: string): DecimalType | undefined {
  if (upper === 'DECIMAL' || upper === 'NUMERIC') return decimalTypeOf(DECIMAL_DEFAULT_PRECISION, DECIMAL_DEFAULT_SCALE);
  const match = /^(?:DECIMAL|NUMERIC)\((\d+)(?:,(\d+))?\)$/.exec(upper);
  if (match === null) return undefined;
  const precision = Number(match[1]);
  const scale = match[2] === undefined ? decimalDefaultScale(precision) : Number(match[2]);
  if (precision < 1 || precision > DECIMAL_PRECISION_MAX || scale > precision) return undefined;
  return decimalTypeOf(precision, scale);
}

/** Digits of the integer types when they meet decimals (QuestDB's DecimalUtil implicit cast types). */
const INTEGER_DECIMAL_DIGITS: Readonly<Record<string, number>> = { BYTE: 3, SHORT: 5, INT: 10, LONG: 19 };

/**
 * The type that holds values of all the given types when at least one is DECIMAL and the others are decimals or
 * integers: the widest integer part and the largest scale (QuestDB's ResultTypes.decimalUnion); undefined otherwise.
 */
export function decimalUnionType(types: readonly string[]): DecimalType | undefined {
  if (!types.some(isDecimalType)) return undefined;
  let integerDigits = 0;
  let scale = 0;
  for (const type of types) {
    const digits = INTEGER_DECIMAL_DIGITS[type];
    if (digits !== undefined) {
      integerDigits = Math.max(integerDigits, digits);
    } else if (isDecimalType(type)) {
      integerDigits = Math.max(integerDigits, decimalPrecision(type) - decimalScale(type));
      scale = Math.max(scale, decimalScale(type));
    } else {
      return undefined;
    }
  }
  return decimalTypeOf(Math.min(Math.max(integerDigits + scale, 1), DECIMAL_PRECISION_MAX), scale);
}

/** The stored value at byte `offset` as canonical text, through numbers when the value fits 2^53. */
export function readDecimalTextAt(bytes: Buffer, offset: number, widthBytes: number, scale: number): string | null {
  switch (widthBytes) {
    case 1: { const v = bytes.readInt8(offset); return v === -128 ? null : formatDecimalNumber(v, scale); }
    case 2: { const v = bytes.readInt16LE(offset); return v === -32768 ? null : formatDecimalNumber(v, scale); }
    case 4: { const v = bytes.readInt32LE(offset); return v === -2147483648 ? null : formatDecimalNumber(v, scale); }
    default: {
      // |value| < 2^52 when the second word is within ±2^20 and every word above it only extends its sign.
      const high = bytes.readInt32LE(offset + 4);
      if (high < -1048576 || high >= 1048576) break;
      const extension = high < 0 ? -1 : 0;
      let extended = true;
      for (let at = offset + 8; at < offset + widthBytes && extended; at += 4) extended = bytes.readInt32LE(at) === extension;
      if (extended) return formatDecimalNumber(high * 4294967296 + bytes.readUInt32LE(offset), scale);
    }
  }
  const unscaled = readDecimalUnscaled(bytes, offset, widthBytes);
  return unscaled === null ? null : formatDecimal(unscaled, scale);
}
