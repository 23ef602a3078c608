// Value text forms against what QuestDB prints. Double expectations were produced by JDK 17's
// Double.toString (the digit generator QuestDB's Numbers.append(double) copies); float expectations by
// JDK 25's Float.toString (what QuestDB 9.4+ runs on).
import test from 'ava';
import { csvQuoted, formatDouble, formatFloat, formatLong, jsonString } from '../../../src/types/value-format.js';

/** [input, expected] pairs checked with one assertion each so a failure names its input. */
function checkAll<T>(
  t: { is: (actual: string, expected: string, message?: string) => void },
  format: (value: T) => string,
  cases: ReadonlyArray<readonly [T, string]>,
): void {
  for (const [input, expected] of cases) t.is(format(input), expected, `input ${String(input)}`);
}

/** A float32 value as a Float32Array would hold it. */
const f32 = (value: number): number => Math.fround(value);

test('formatDouble: plain notation with a fraction between 1e-3 and 1e7', (t) => {
  checkAll(t, formatDouble, [
    [1500, '1500.0'], [0.1, '0.1'], [0.29313719347837397, '0.29313719347837397'], [100, '100.0'],
    [-2.5, '-2.5'], [4.35, '4.35'], [0.001, '0.001'], [9999999, '9999999.0'], [1234567.5, '1234567.5'],
  ]);
});

test('formatDouble: Java E-notation outside [1e-3, 1e7), at least one fraction digit, no plus sign', (t) => {
  checkAll(t, formatDouble, [
    [1e21, '1.0E21'], [1e-7, '1.0E-7'], [123456789.0, '1.23456789E8'], [1e7, '1.0E7'], [1e20, '1.0E20'],
    [1e-5, '1.0E-5'], [0.00099, '9.9E-4'], [12345678.9, '1.23456789E7'], [-1.5e-10, '-1.5E-10'], [1e16, '1.0E16'],
    [Number.MAX_VALUE, '1.7976931348623157E308'], [9.999999999999999e-4, '9.999999999999998E-4'],
  ]);
});

test('formatDouble: zeros, the smallest subnormal, non-finite values', (t) => {
  checkAll(t, formatDouble, [
    [0, '0.0'], [-0, '-0.0'], [5e-324, '4.9E-324'], [-5e-324, '-4.9E-324'], [2 ** -1073, '1.0E-323'],
    [Number.NaN, 'NaN'], [Infinity, 'Infinity'], [-Infinity, '-Infinity'],
  ]);
});

test('formatDouble: QuestDB digits where they differ from the shortest round trip', (t) => {
  checkAll(t, formatDouble, [
    // Integral values up to 2^63 are printed from the exact integer.
    [2 ** 60, '1.15292150460684698E18'], [-(2 ** 62), '-4.6116860184273879E18'], [2 ** 63, '9.223372036854776E18'],
    // Powers of two get a narrower margin; exact ties keep the even digit.
    [2 ** -24, '5.9604644775390625E-8'], [2 ** -25, '2.9802322387695312E-8'],
    // A decimal exactly on the rounding boundary is not taken.
    [1e23, '9.999999999999999E22'], [2e23, '1.9999999999999998E23'],
  ]);
});

test('formatDouble: every printed value reads back as the same double', (t) => {
  let state = 7;
  for (let index = 0; index < 2000; index++) {
    state = (state * 1103515245 + 12345) % 2147483648;
    const value = (state / 2147483648 - 0.5) * 10 ** ((index % 80) - 40);
    t.is(Number(formatDouble(value)), value);
  }
});

test('formatFloat: shortest digits that read back as the same float32', (t) => {
  checkAll(t, formatFloat, [
    [f32(0.1), '0.1'], [f32(54321), '54321.0'], [f32(0.24593449), '0.24593449'], [f32(3.4), '3.4'],
    [f32(1234567.9), '1234567.9'], [f32(0.001), '0.001'], [f32(16777216), '1.6777216E7'], [f32(1e7), '1.0E7'],
  ]);
});

test('formatFloat: E-notation, extremes, ties and powers of two as JDK 25 prints them', (t) => {
  checkAll(t, formatFloat, [
    [f32(1e10), '1.0E10'], [f32(1.35e12), '1.35E12'], [f32(1e-4), '1.0E-4'], [f32(3.4028234663852886e38), '3.4028235E38'],
    [f32(1.4e-45), '1.4E-45'], [f32(2 ** -12), '2.4414062E-4'], [f32(2 ** 87), '1.5474251E26'],
    [f32(-1e10), '-1.0E10'], [0, '0.0'], [-0, '-0.0'], [Number.NaN, 'NaN'], [-Infinity, '-Infinity'],
  ]);
});

test('formatLong: bigint and number', (t) => {
  t.is(formatLong(9223372036854775807n), '9223372036854775807');
  t.is(formatLong(-9223372036854775808n), '-9223372036854775808');
  t.is(formatLong(42), '42');
  t.is(formatLong(-7), '-7');
});

test('jsonString: quotes, backslashes and control characters are escaped, nothing else', (t) => {
  t.is(jsonString('plain text'), '"plain text"');
  t.is(jsonString(''), '""');
  t.is(jsonString('say "hi"\\'), '"say \\"hi\\"\\\\"');
  t.is(jsonString('a\nb\rc\td\be\ff'), '"a\\nb\\rc\\td\\be\\ff"');
  t.is(jsonString('\u0000\u0001\u001f'), '"\\u0000\\u0001\\u001f"');
  t.is(jsonString('ünïcødé / € \u007f'), '"ünïcødé / € \u007f"');
});

test('csvQuoted: quotes doubled, backslashes doubled, control characters escaped as QuestDB /exp does', (t) => {
  t.is(csvQuoted('abc'), '"abc"');
  t.is(csvQuoted(''), '""');
  t.is(csvQuoted('say "hi"'), '"say ""hi"""');
  t.is(csvQuoted('a,b'), '"a,b"');
  t.is(csvQuoted('back\\slash'), '"back\\\\slash"');
  t.is(csvQuoted('line\nbreak\t'), '"line\\nbreak\\t"');
});
