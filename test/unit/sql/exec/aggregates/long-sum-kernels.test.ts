// sum/avg over LONG: exact 64-bit sums that wrap like Java's long, nulls skipped, the same answers from the
// WebAssembly batch sum (ungrouped, exact vectors), the word loop (vectors without exact values) and the
// grouped loop; carries across many batches keep the low-word sums exact.
import test from 'ava';
import { LongSumAvgKernel } from '../../../../../src/sql/exec/aggregates/long-sum-kernels.js';
import { sumInt64Batch } from '../../../../../src/sql/exec/aggregates/int64-sum-wasm.js';
import type { Vector } from '../../../../../src/sql/exec/batch.js';

const NULL = -9223372036854775808n;
const wrap = (value: bigint): bigint => BigInt.asIntN(64, value);

function exactVector(values: readonly bigint[]): Vector {
  const exact = BigInt64Array.from(values);
  return { type: 'LONG', exact, data: Float64Array.from(exact, (value) => (value === NULL ? NaN : Number(value))) };
}

function numbersOnly(values: readonly bigint[]): Vector {
  return { type: 'LONG', data: Float64Array.from(values, (value) => (value === NULL ? NaN : Number(value))) };
}

function sumOf(kernel: LongSumAvgKernel, groupCount = 1): Vector {
  return kernel.result(groupCount);
}

test('the WebAssembly batch sum splits exact halves and counts nulls', (t) => {
  const values = [1n, -1n, 9007199254740993n, NULL, 4294967296n * 5n + 7n, -9223372036854775807n];
  const out = new Float64Array(3);
  sumInt64Batch(BigInt64Array.from(values), values.length, out);
  const expected = values.filter((value) => value !== NULL).reduce((a, b) => a + b, 0n);
  t.is(BigInt(out[1] as number) * 4294967296n + BigInt(out[0] as number), expected);
  t.is(out[2], 5);
});

test('ungrouped sum is exact beyond 2^53 and wraps; avg is DOUBLE; nulls are skipped', (t) => {
  const values = [9007199254740993n, 9007199254740993n, NULL, 9223372036854775807n, 2n];
  const sum = new LongSumAvgKernel(false);
  sum.update(exactVector(values), values.length, undefined, 1);
  const result = sumOf(sum);
  t.is(result.type, 'LONG');
  t.is(result.exact?.[0], wrap(9007199254740993n * 2n + 9223372036854775807n + 2n));
  // Computed vectors carry numbers only (exact within ±2^53): the word loop rebuilds their words.
  const computed = new LongSumAvgKernel(false);
  computed.update(numbersOnly([9007199254740991n, NULL, -5n, 9007199254740991n]), 4, undefined, 1);
  t.is(sumOf(computed).exact?.[0], 9007199254740991n * 2n - 5n);
  const avg = new LongSumAvgKernel(true);
  avg.update(exactVector([1n, 2n, NULL, 4n]), 4, undefined, 1);
  const mean = sumOf(avg);
  t.is(mean.type, 'DOUBLE');
  t.is((mean.data as Float64Array)[0], 7 / 3);
});

test('a group without values is NULL', (t) => {
  const sum = new LongSumAvgKernel(false);
  sum.update(exactVector([NULL, 5n]), 2, Int32Array.from([0, 1]), 2);
  const result = sumOf(sum, 2);
  t.deepEqual([...(result.data as Float64Array)], [NaN, 5]);
  t.is(result.exact?.[0], NULL);
  const avg = new LongSumAvgKernel(true);
  avg.update(exactVector([NULL]), 1, undefined, 1);
  t.true(Number.isNaN((sumOf(avg).data as Float64Array)[0]));
});

test('grouped sums over many batches carry low words exactly', (t) => {
  const sum = new LongSumAvgKernel(false);
  const rows = 65536;
  const value = 4294967295n * 1000n + 4294967295n;
  const values = new Array<bigint>(rows).fill(value);
  const groups = Int32Array.from({ length: rows }, (_, k) => k % 3);
  const batches = 40;
  for (let batch = 0; batch < batches; batch++) sum.update(exactVector(values), rows, groups, 3);
  const result = sumOf(sum, 3);
  for (let group = 0; group < 3; group++) {
    const count = BigInt(batches) * BigInt(Math.floor(rows / 3) + (group < rows % 3 ? 1 : 0));
    t.is(result.exact?.[group], wrap(value * count));
  }
});

test('values in [0, 2^32) take the subnormal pass; a null or a negative value among them takes the exact one', (t) => {
  const small = Array.from({ length: 1001 }, (_, k) => BigInt((k * 48271) % 10000 + 1) * 400000n);
  const expected = small.reduce((a, b) => a + b, 0n);
  const sum = new LongSumAvgKernel(false);
  sum.update(exactVector(small), small.length, undefined, 1);
  t.is(sumOf(sum).exact?.[0], expected);
  const withNull = new LongSumAvgKernel(true);
  withNull.update(exactVector([...small, NULL]), small.length + 1, undefined, 1);
  t.is((sumOf(withNull).data as Float64Array)[0], Number(expected) / small.length);
  const withNegative = new LongSumAvgKernel(false);
  withNegative.update(exactVector([...small, -7n]), small.length + 1, undefined, 1);
  t.is(sumOf(withNegative).exact?.[0], expected - 7n);
  const zeros = new LongSumAvgKernel(false);
  zeros.update(exactVector([0n, 0n, 0n]), 3, undefined, 1);
  t.is(sumOf(zeros).exact?.[0], 0n);
});
