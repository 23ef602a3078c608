// 64-bit vectors read from storage convert to numbers lazily; slicing and gathering a few rows must give the
// same values (nulls as NaN, exact values kept) without converting the whole source batch.
import test from 'ava';
import { gatherVector, sliceVector } from '../../../../src/sql/exec/vector-ops.js';
import type { Vector } from '../../../../src/sql/exec/batch.js';

function lazyLongVector(values: readonly bigint[]): { vector: Vector; conversions: () => number } {
  const exact = BigInt64Array.from(values);
  let conversions = 0;
  const vector: Vector = {
    type: 'LONG',
    exact,
    get data(): Float64Array {
      conversions++;
      return Float64Array.from(exact, (value) => (value === -9223372036854775808n ? NaN : Number(value)));
    },
  };
  return { vector, conversions: () => conversions };
}

const values = [1n, -9223372036854775808n, 9007199254740993n, -5n, 4294967296n, 42n];

test('slicing a lazy 64-bit vector keeps it lazy and exact', (t) => {
  const { vector, conversions } = lazyLongVector(values);
  const sliced = sliceVector(vector, 1, 5);
  t.is(conversions(), 0, 'the source batch is not converted');
  t.deepEqual([...(sliced.exact as BigInt64Array)], values.slice(1, 5));
  t.deepEqual([...(sliced.data as Float64Array)], [NaN, 9007199254740992, -5, 4294967296]);
});

test('gathering rows of a lazy 64-bit vector keeps it lazy and exact', (t) => {
  const { vector, conversions } = lazyLongVector(values);
  const gathered = gatherVector(vector, Int32Array.from([5, 0, 1]), 3);
  t.is(conversions(), 0, 'the source batch is not converted');
  t.deepEqual([...(gathered.exact as BigInt64Array)], [42n, 1n, -9223372036854775808n]);
  t.deepEqual([...(gathered.data as Float64Array)], [42, 1, NaN]);
});

test('plain vectors slice and gather as before', (t) => {
  const vector: Vector = { type: 'DOUBLE', data: Float64Array.from([1.5, 2.5, 3.5]) };
  t.deepEqual([...(sliceVector(vector, 1, 3).data as Float64Array)], [2.5, 3.5]);
  t.deepEqual([...(gatherVector(vector, Int32Array.from([2, 0]), 2).data as Float64Array)], [3.5, 1.5]);
});
