// The exact 64-bit helpers of generated code: Java long semantics (wrap at 2^64, truncating division, remainder
// with the dividend's sign), Long.MIN_VALUE as null in and out, Java narrowing casts, QuestDB's DOUBLE -> LONG.
import test from 'ava';
import { LONG_NULL, int64Runtime as rt } from '../../../../src/sql/codegen/runtime-int64.js';

const MAX = 9223372036854775807n;
const TWO_POW_53 = 9007199254740992n;

test('add, subtract and multiply wrap like Java longs; landing on Long.MIN_VALUE is null', (t) => {
  t.is(rt.ladd(MAX, 2n), -MAX);
  t.is(rt.ladd(MAX, 1n), LONG_NULL);
  t.is(rt.lsub(-MAX, 2n), MAX);
  t.is(rt.lmul(MAX, 2n), -2n);
  t.is(rt.lmul(3037000500n, 3037000500n), -9223372036709301616n);
  t.is(rt.ladd(TWO_POW_53, 1n), TWO_POW_53 + 1n);
});

test('division truncates toward zero, remainder keeps the dividend sign, zero divisors give null', (t) => {
  t.is(rt.ldiv(-TWO_POW_53 - 1n, 10n), -900719925474099n);
  t.is(rt.lmod(-TWO_POW_53 - 1n, 10n), -3n);
  t.is(rt.lmod(TWO_POW_53 + 1n, -7n), 5n);
  t.is(rt.ldiv(5n, 0n), LONG_NULL);
  t.is(rt.lmod(5n, 0n), LONG_NULL);
  t.is(rt.ldiv(-MAX, -1n), MAX);
});

test('null operands give null for every operation', (t) => {
  for (const result of [rt.ladd(LONG_NULL, 1n), rt.lsub(1n, LONG_NULL), rt.lmul(LONG_NULL, 0n), rt.ldiv(LONG_NULL, 1n), rt.lmod(1n, LONG_NULL), rt.lneg(LONG_NULL), rt.labs(LONG_NULL)]) {
    t.is(result, LONG_NULL);
  }
  t.is(rt.labs(-MAX), MAX);
});

test('comparison stand-ins order exact values and keep null rules', (t) => {
  t.is(rt.lcmp(TWO_POW_53 + 1n, TWO_POW_53), 1);
  t.is(rt.lcmp(TWO_POW_53, TWO_POW_53 + 1n), -1);
  t.is(rt.lcmp(5n, 5n), 0);
  t.true(Number.isNaN(rt.lcmp(LONG_NULL, 5n)));
  t.true(Number.isNaN(rt.lcmpRight(LONG_NULL)));
  t.is(rt.lcmpRight(5n), 0);
});

test('narrowing casts take the low bits; text and doubles convert exactly', (t) => {
  t.is(rt.ltoInt(4294967297n), 1);
  t.is(rt.ltoInt(MAX), -1);
  t.true(Number.isNaN(rt.ltoInt(LONG_NULL)));
  t.is(rt.ltoShort(65537n), 1);
  t.is(rt.ltoByte(TWO_POW_53 + 1n), 1);
  t.is(rt.ltoShort(LONG_NULL), 0);
  t.is(rt.ltoText(TWO_POW_53 + 1n), '9007199254740993');
  t.is(rt.ltoText(LONG_NULL), null);
  t.is(rt.lnum(TWO_POW_53 + 3n), 9007199254740996);
  t.true(Number.isNaN(rt.lnum(LONG_NULL)));
});

test('DOUBLE to LONG is null outside the long range, as QuestDB casts', (t) => {
  t.is(rt.dtoL(9.3e18), LONG_NULL);
  t.is(rt.dtoL(-9.3e18), LONG_NULL);
  t.is(rt.dtoL(2 ** 63), MAX);
  t.is(rt.dtoL(-9.99), -9n);
  t.is(rt.dtoL(NaN), LONG_NULL);
  t.is(rt.lbig(Infinity), LONG_NULL);
  t.is(rt.textToL(' 9223372036854775807 ', 9223372036854775808), MAX);
  t.is(rt.textToL(null, NaN), LONG_NULL);
});

test('an exact output started mid-batch holds the rows before it', (t) => {
  const numbers = Float64Array.from([1, NaN, -3, 0]);
  const exact = rt.lstartExact(numbers, 3);
  t.deepEqual(Array.from(exact), [1n, LONG_NULL, -3n, 0n]);
});
