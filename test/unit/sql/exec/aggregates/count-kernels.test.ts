// count(x) skips nulls by layout: exact 64-bit words (Long.MIN_VALUE), NaN in number vectors, sentinels
// elsewhere; with and without groups, and without converting 64-bit vectors to numbers.
import test from 'ava';
import { CountKernel } from '../../../../../src/sql/exec/aggregates/count-kernels.js';
import type { Vector } from '../../../../../src/sql/exec/batch.js';

const LONG_NULL = -9223372036854775808n;

function counted(vector: Vector, rowCount: number, groups?: Int32Array, groupCount = 1): number[] {
  const kernel = new CountKernel(true);
  kernel.update(vector, rowCount, groups, groupCount);
  return Array.from(kernel.result(groupCount).data as Float64Array);
}

test('exact 64-bit vectors count their non-null words and never read the numbers', (t) => {
  const exact = BigInt64Array.of(1n, LONG_NULL, -1n, 0n, -9223372036854775807n, LONG_NULL);
  const vector: Vector = {
    type: 'LONG',
    exact,
    get data(): Float64Array {
      throw new Error('count(x) must not convert a 64-bit vector to numbers');
    },
  };
  t.deepEqual(counted(vector, 6), [4]);
  t.deepEqual(counted(vector, 6, Int32Array.of(0, 1, 1, 0, 1, 0), 2), [2, 2]);
  t.deepEqual(counted(vector, 2), [1], 'only rows of the batch count');
});

test('number vectors skip NaN; other layouts keep their sentinels', (t) => {
  t.deepEqual(counted({ type: 'DOUBLE', data: Float64Array.of(1, NaN, 0, -0, NaN) }, 5), [3]);
  t.deepEqual(counted({ type: 'FLOAT', data: Float32Array.of(NaN, 2) }, 2, Int32Array.of(1, 1), 2), [0, 1]);
  t.deepEqual(counted({ type: 'INT', data: Int32Array.of(-2147483648, 0, 5) }, 3), [2]);
  t.deepEqual(counted({ type: 'STRING', data: ['a', null, ''] }, 3), [2]);
});
