// min/max over 64-bit integers: the double decides unless two values share one double beyond 2^53, where the
// exact words decide; nulls are skipped, a group without values is null, and the result carries exact values.
import test from 'ava';
import { Int64MinMaxKernel } from '../../../../../src/sql/exec/aggregates/int64-min-max-kernel.js';
import type { Vector } from '../../../../../src/sql/exec/batch.js';

const NULL = -9223372036854775808n;

function longVector(values: readonly bigint[]): Vector {
  return { type: 'LONG', data: Float64Array.from(values, (value) => (value === NULL ? NaN : Number(value))), exact: BigInt64Array.from(values) };
}

test('values sharing one double are told apart by their exact words', (t) => {
  const values = [9007199254740992n, 9007199254740993n, NULL, -9007199254740993n, -9007199254740992n];
  const max = new Int64MinMaxKernel('LONG', true);
  const min = new Int64MinMaxKernel('LONG', false);
  max.update(longVector(values), values.length, undefined, 1);
  min.update(longVector(values), values.length, undefined, 1);
  t.deepEqual(Array.from(max.result(1).exact ?? []), [9007199254740993n]);
  t.deepEqual(Array.from(min.result(1).exact ?? []), [-9007199254740993n]);
});

test('groups fold across batches; a group without values is null', (t) => {
  const kernel = new Int64MinMaxKernel('LONG', true);
  kernel.update(longVector([5n, NULL, 9223372036854775806n]), 3, Int32Array.from([0, 1, 0]), 2);
  kernel.update(longVector([9223372036854775807n, 3n]), 2, Int32Array.from([0, 2]), 3);
  const result = kernel.result(3);
  t.deepEqual(Array.from(result.exact ?? []), [9223372036854775807n, NULL, 3n]);
  t.true(Number.isNaN((result.data as Float64Array)[1] as number));
});

test('vectors without exact values (computed within 2^53) still give exact results', (t) => {
  const kernel = new Int64MinMaxKernel('TIMESTAMP', false);
  kernel.update({ type: 'TIMESTAMP', data: Float64Array.from([7, -2, NaN]) }, 3, undefined, 1);
  t.deepEqual(Array.from(kernel.result(1).exact ?? []), [-2n]);
});
