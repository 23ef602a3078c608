// Value → text exactly as QuestDB prints it in /exec JSON and /exp CSV: doubles, floats, longs and
// escaped strings. Called once per value, so every function has an allocation-light fast path.
// Pure functions of their argument; null handling (NaN, INT/LONG sentinels) is the caller's job.
import { unreachable } from '../core/assert.js';

// DOUBLE — QuestDB's Numbers.append(CharSink, double) (core/src/main/java/io/questdb/std/Numbers.java,
// appendDouble0/appendDouble00) is its own copy of the pre-JDK-19 FloatingDecimal generator, laid out like
// Double.toString: plain with a fraction for 1e-3 <= |v| < 1e7 ("1500.0", "0.001"); otherwise "d.dddE<exp>"
// with at least one fraction digit, no '+', and a one-digit mantissa widened to the closest two digits
// ("1.0E7", "1.0E-5", "4.9E-324"); "0.0", "-0.0", "NaN", "Infinity", "-Infinity".
// Digits: integral values below 2^63 come from the exact integer, rounded half-up at the "insignificant
// digits" of 2^(binaryExponent-54) (2^60 → "1.15292150460684698E18", not "1.152921504606847E18"). Otherwise
// the shortest d with |d - v| < margin (strict), margin being half the gap to the next double, or a quarter
// of it for a single-bit significand: JS's shortest digits except for powers of two (2^-24 →
// "5.9604644775390625E-8") and exact ties above 2^63 (1e23 → "9.999999999999999E22"), which take an exact
// BigInt path. Verified against JDK 17's Double.toString (same generator) on 300k doubles.
// FLOAT — Numbers.append(CharSink, float) falls through to Float.toString, and QuestDB 9.4+ runs on JDK 25,
// whose Float.toString gives the shortest round-trip digits (JDK 19+) in the same layout.

/** Integral doubles below this are printed digit by digit; from here on the margin rule applies. */
const EXACT_INTEGRAL_LIMIT = 2 ** 63;
/** From 2^54 on the exact-integer path starts rounding away "insignificant" trailing digits. */
const INSIGNIFICANT_DIGITS_FROM = 2 ** 54;

export function formatDouble(v: number): string {
  const magnitude = v < 0 ? -v : v;
  if (magnitude >= 1e-3 && magnitude < 1e7) {
    // JS prints this range in plain notation with the shortest digits, as Java does; only the ".0" differs.
    return Number.isInteger(v) ? `${v}.0` : String(v);
  }
  if (v !== v) return 'NaN';
  if (magnitude === Infinity) return v > 0 ? 'Infinity' : '-Infinity';
  if (magnitude === 0) return Object.is(v, -0) ? '-0.0' : '0.0';
  if (magnitude >= INSIGNIFICANT_DIGITS_FROM && magnitude < EXACT_INTEGRAL_LIMIT) {
    return formatDoubleLargeIntegral(v < 0, magnitude);
  }
  if (needsMarginCheck(magnitude)) return formatDoubleWithinMargin(v < 0, magnitude);
  return formatScientific(v, v.toExponential(), false);
}

/** `v` must already be a float32 value (read from a Float32Array or passed through Math.fround). */
export function formatFloat(v: number): string {
  if (v !== v) return 'NaN';
  const magnitude = v < 0 ? -v : v;
  if (magnitude === Infinity) return v > 0 ? 'Infinity' : '-Infinity';
  if (magnitude === 0) return Object.is(v, -0) ? '-0.0' : '0.0';
  const exponential = shortestFloatExponential(magnitude);
  const text = magnitude >= 1e-3 && magnitude < 1e7
    ? plainFromExponential(exponential)
    : formatScientific(magnitude, exponential, true);
  return v < 0 ? `-${text}` : text;
}

export function formatLong(v: bigint | number): string {
  return String(v);
}

const floatBits = new DataView(new ArrayBuffer(4));

function readsBackAsFloat(text: string, magnitude: number): boolean {
  return Math.fround(Number(text)) === magnitude;
}

/** Shortest digits that read back as the same float32, the closest such, even digit on an exact tie (JDK 19+). */
function shortestFloatExponential(magnitude: number): string {
  floatBits.setFloat32(0, magnitude);
  const bits = floatBits.getUint32(0);
  // Above a normal power of two the gap is twice the gap below, so the nearest p-digit decimal can fall
  // outside on the narrow side while the next one up still reads back.
  const candidate = (bits & 0x7fffff) === 0 && bits >>> 23 > 1
    ? shortestFloatNearPowerOfTwo(magnitude)
    : magnitude.toExponential(shortestFloatPrecision(magnitude) - 1);
  return preferEvenDigitOnTie(magnitude, candidate);
}

/** Smallest number of significant digits whose correctly rounded decimal reads back as the same float32. */
function shortestFloatPrecision(magnitude: number): number {
  // With a symmetric rounding interval this is monotonic in the digit count: binary search over 1..9.
  let low = 1;
  let high = 9;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (readsBackAsFloat(magnitude.toPrecision(middle), magnitude)) high = middle;
    else low = middle + 1;
  }
  return low;
}

function shortestFloatNearPowerOfTwo(magnitude: number): string {
  for (let precision = 1; precision < 9; precision++) {
    const nearest = magnitude.toExponential(precision - 1);
    if (readsBackAsFloat(nearest, magnitude)) return nearest;
    const above = stepLastDigit(nearest, 1);
    if (readsBackAsFloat(above, magnitude)) return above;
  }
  return magnitude.toExponential(8);
}

/** JS rounds exact halves up; Java keeps the even digit when the value lies exactly between two candidates. */
function preferEvenDigitOnTie(magnitude: number, candidate: string): string {
  const e = candidate.indexOf('e');
  if ((candidate.charCodeAt(e - 1) & 1) === 0) return candidate; // '0'..'9' share parity with their code
  const precision = e - (e > 1 ? 1 : 0);
  const finer = magnitude.toExponential(precision);
  const finerE = finer.indexOf('e');
  if (finer.charCodeAt(finerE - 1) !== 53) return candidate; // the next digit is not a 5: no tie
  const finerDigits = BigInt(finer[0] + finer.slice(2, finerE));
  const parts = decomposeDouble(magnitude);
  const decimalExponent = Number(finer.slice(finerE + 1)) - precision;
  const [decimal, binary] = scaleExactly(finerDigits, decimalExponent, parts.significand, parts.binaryExponent, 0);
  if (decimal !== binary) return candidate;
  const below = stepLastDigit(candidate, -1);
  return readsBackAsFloat(below, magnitude) ? below : candidate;
}

/** "d.ddde±x" with the last digit moved by ±1, carrying into the exponent when the digit count changes. */
function stepLastDigit(exponential: string, delta: number): string {
  const e = exponential.indexOf('e');
  const digits = exponential[0] + exponential.slice(2, e);
  let exponent = Number(exponential.slice(e + 1));
  let stepped = (BigInt(digits) + BigInt(delta)).toString(); // up to 17 digits: beyond 2^53
  if (stepped.length > digits.length) {
    stepped = stepped.slice(0, digits.length);
    exponent++;
  } else if (stepped.length < digits.length) {
    stepped += '9';
    exponent--;
  }
  const mantissa = stepped.length > 1 ? `${stepped[0]}.${stepped.slice(1)}` : stepped;
  return `${mantissa}e${exponent < 0 ? '-' : '+'}${Math.abs(exponent)}`;
}

/**
 * Java's E-notation from JS's exponential form ("-1.25e+21" → "-1.25E21"). A one-digit mantissa gets a
 * second digit: the closer two-digit decimal when it still reads back as `v` ("5e-324" → "4.9E-324"), else ".0".
 */
function formatScientific(v: number, exponential: string, isFloat: boolean): string {
  let text = exponential;
  let e = text.indexOf('e');
  if (text.indexOf('.') < 0) {
    const twoDigits = v.toExponential(1);
    const readBack = isFloat ? Math.fround(Number(twoDigits)) : Number(twoDigits);
    text = readBack === v ? twoDigits : `${text.slice(0, e)}.0${text.slice(e)}`;
    e = text.indexOf('e');
  }
  const sign = text.charCodeAt(e + 1) === 45 ? '-' : '';
  return `${text.slice(0, e)}E${sign}${text.slice(e + 2)}`;
}

/** Plain layout ("1500.0", "0.0012") from an exponential string with 1e-3 <= |v| < 1e7. */
function plainFromExponential(exponential: string): string {
  const e = exponential.indexOf('e');
  const negative = exponential.charCodeAt(0) === 45;
  const mantissa = exponential.slice(negative ? 1 : 0, e);
  const digits = mantissa.length > 1 ? mantissa[0] + mantissa.slice(2) : mantissa;
  const pointIndex = Number(exponential.slice(e + 1)) + 1; // digits before the decimal point
  const sign = negative ? '-' : '';
  if (pointIndex <= 0) return `${sign}0.${'0'.repeat(-pointIndex)}${digits}`;
  if (digits.length <= pointIndex) return `${sign}${digits}${'0'.repeat(pointIndex - digits.length)}.0`;
  return `${sign}${digits.slice(0, pointIndex)}.${digits.slice(pointIndex)}`;
}

/** QuestDB's exact-integer path for 2^54 <= |v| < 2^63 (see the header): round half-up, drop trailing zeros. */
function formatDoubleLargeIntegral(negative: boolean, magnitude: number): string {
  let binaryExponent = 54;
  while (2 ** (binaryExponent + 1) <= magnitude) binaryExponent++;
  const excess = binaryExponent - 54;
  // Number of decimal digits of 2^excess minus one, i.e. floor(log10(2^excess)); none below 2^2.
  const insignificant = excess > 1 ? String(2 ** excess).length - 1 : 0;
  const value = BigInt(magnitude);
  const scale = 10n ** BigInt(insignificant);
  let kept = value / scale;
  if (insignificant > 0 && (value % scale) * 2n >= scale) kept += 1n;
  const keptText = kept.toString();
  let end = keptText.length;
  while (end > 1 && keptText.charCodeAt(end - 1) === 48) end--;
  const exponent = keptText.length + insignificant - 1;
  const fraction = end > 1 ? keptText.slice(1, end) : '0';
  return `${negative ? '-' : ''}${keptText[0]}.${fraction}E${exponent}`;
}

const doubleBits = new DataView(new ArrayBuffer(8));

/** Powers of two (a single significand bit) and values from 2^63 on: where QuestDB's digits can differ from JS's. */
function needsMarginCheck(magnitude: number): boolean {
  if (magnitude >= EXACT_INTEGRAL_LIMIT) return true;
  doubleBits.setFloat64(0, magnitude);
  const high = doubleBits.getUint32(0);
  const low = doubleBits.getUint32(4);
  const fractionHigh = high & 0xfffff;
  if (high >>> 20 !== 0) return fractionHigh === 0 && low === 0;
  // Subnormal: exactly one bit set across both words.
  if (fractionHigh === 0) return (low & (low - 1)) === 0;
  return low === 0 && (fractionHigh & (fractionHigh - 1)) === 0;
}

/**
 * The slow, exact path: the shortest correctly rounded decimal (two digits at least, as the layout is E-form)
 * whose distance to `magnitude` is strictly below QuestDB's margin (see the header).
 */
function formatDoubleWithinMargin(negative: boolean, magnitude: number): string {
  // 2^-1073 is the one double where QuestDB's decimal-exponent estimate leaks into the output (JDK 17 agrees).
  if (magnitude === 2 ** -1073) return negative ? '-1.0E-323' : '1.0E-323';
  const { significand, binaryExponent } = decomposeDouble(magnitude);
  const marginExponent = binaryExponent - ((significand & (significand - 1n)) === 0n ? 2 : 1);
  const shortest = magnitude.toExponential();
  const shortestDigits = shortest.indexOf('e') - (shortest.indexOf('.') < 0 ? 0 : 1);
  for (let precision = Math.max(2, shortestDigits); precision <= 21; precision++) {
    const candidate = magnitude.toExponential(precision - 1);
    const e = candidate.indexOf('e');
    const digits = BigInt(candidate[0] + candidate.slice(2, e));
    const decimalExponent = Number(candidate.slice(e + 1)) - (precision - 1);
    const [decimal, binary, margin, unit] =
      scaleExactly(digits, decimalExponent, significand, binaryExponent, marginExponent);
    const distance = decimal > binary ? decimal - binary : binary - decimal;
    if (distance >= margin) continue;
    // On an exact tie JS rounded half up; QuestDB keeps the even digit (2^-25 → "...695312E-8").
    const tie = decimal > binary && distance * 2n === unit && (digits & 1n) === 1n;
    const text = tie ? stepLastDigit(candidate, -1) : candidate;
    return (negative ? '-' : '') + formatScientific(magnitude, text, false);
  }
  return unreachable('21 significant digits always lie within a quarter of a double\'s gap');
}

interface DoubleParts {
  readonly significand: bigint;
  readonly binaryExponent: number;
}

/** magnitude = significand · 2^binaryExponent exactly. */
function decomposeDouble(magnitude: number): DoubleParts {
  doubleBits.setFloat64(0, magnitude);
  const high = doubleBits.getUint32(0);
  const exponentBits = high >>> 20;
  const fraction = (BigInt(high & 0xfffff) << 32n) | BigInt(doubleBits.getUint32(4));
  if (exponentBits === 0) return { significand: fraction, binaryExponent: -1074 };
  return { significand: fraction | (1n << 52n), binaryExponent: exponentBits - 1075 };
}

/**
 * digits·10^decimalExponent, significand·2^binaryExponent, 2^marginExponent and 10^decimalExponent, all
 * multiplied by the same power of 2 and 5 so that each is an exact integer and they can be compared.
 */
function scaleExactly(
  digits: bigint, decimalExponent: number, significand: bigint, binaryExponent: number, marginExponent: number,
): [bigint, bigint, bigint, bigint] {
  const lowestTwo = Math.min(decimalExponent, binaryExponent, marginExponent);
  const lowestFive = Math.min(decimalExponent, 0);
  const fives = 5n ** BigInt(-lowestFive);
  const unit = 5n ** BigInt(decimalExponent - lowestFive) * 2n ** BigInt(decimalExponent - lowestTwo);
  const binary = significand * fives * 2n ** BigInt(binaryExponent - lowestTwo);
  return [digits * unit, binary, fives * 2n ** BigInt(marginExponent - lowestTwo), unit];
}

const JSON_ESCAPES: readonly string[] = buildControlEscapes();

/** Escapes for code units 0..31, as QuestDB's escapeJsonStrChar writes them (lowercase hex). */
function buildControlEscapes(): string[] {
  const escapes: string[] = [];
  for (let code = 0; code < 32; code++) {
    escapes.push(`\\u00${code.toString(16).padStart(2, '0')}`);
  }
  escapes[8] = '\\b';
  escapes[9] = '\\t';
  escapes[10] = '\\n';
  escapes[12] = '\\f';
  escapes[13] = '\\r';
  return escapes;
}

/** JSON string literal: `"` and `\` get a backslash, code units below 32 are escaped; nothing else is. */
export function jsonString(s: string): string {
  const length = s.length;
  for (let index = 0; index < length; index++) {
    const code = s.charCodeAt(index);
    if (code < 32 || code === 34 || code === 92) return `"${escapeFrom(s, index, '\\"')}"`;
  }
  return `"${s}"`;
}

/**
 * CSV field as QuestDB's /exp writes STRING/VARCHAR/SYMBOL (Utf8Sink.escapeCsvStr): quoted, inner `"` doubled,
 * `\` doubled, and code units below 32 escaped JSON-style (a newline becomes the two characters `\n`).
 */
export function csvQuoted(s: string): string {
  const length = s.length;
  for (let index = 0; index < length; index++) {
    const code = s.charCodeAt(index);
    if (code < 32 || code === 34 || code === 92) return `"${escapeFrom(s, index, '""')}"`;
  }
  return `"${s}"`;
}

/** Slow path shared by both writers: escapes from `start` on; `quoteEscape` is what `"` becomes. */
function escapeFrom(s: string, start: number, quoteEscape: string): string {
  let out = s.slice(0, start);
  let runStart = start;
  for (let index = start; index < s.length; index++) {
    const code = s.charCodeAt(index);
    let replacement: string | undefined;
    if (code < 32) replacement = JSON_ESCAPES[code];
    else if (code === 34) replacement = quoteEscape;
    else if (code === 92) replacement = '\\\\';
    if (replacement === undefined) continue;
    out += s.slice(runStart, index) + replacement;
    runStart = index + 1;
  }
  return out + s.slice(runStart);
}
