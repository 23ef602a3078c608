// The merge of partial aggregate states from parallel fragments: groups in order of first appearance across
// slices, null rules per aggregate, avg from partial sums and counts; and which statements split at all.
import test from 'ava';
import { concatRows, mergeAggregateRows } from '../../../../src/sql/parallel/partial-merge.js';
import { parallelShapeOf } from '../../../../src/sql/parallel/parallel-shape.js';
import type { ParallelShape } from '../../../../src/sql/parallel/parallel-shape.js';
import { splitRows } from '../../../../src/sql/parallel/parallel-query.js';
import { parseStatement } from '../../../../src/sql/syntax/parser.js';
import type { ColumnBatch, Vector } from '../../../../src/sql/exec/batch.js';
import type { OutputColumn } from '../../../../src/sql/bind/bound.js';

const INT_NULL = -2147483648;

function symbolVector(texts: readonly (string | null)[]): Vector {
  const dictionary = [...new Set(texts.filter((text): text is string => text !== null))];
  return { type: 'SYMBOL', data: Int32Array.from(texts, (text) => (text === null ? -1 : dictionary.indexOf(text))), symbols: dictionary };
}

function partial(keys: readonly (string | null)[], sums: readonly number[], counts: readonly number[], mins: readonly number[]): ColumnBatch {
  return {
    rowCount: keys.length,
    vectors: [symbolVector(keys), { type: 'DOUBLE', data: Float64Array.from(sums) }, { type: 'LONG', data: Float64Array.from(counts) }, { type: 'INT', data: Int32Array.from(mins) }],
  };
}

/** Output: key, sum, count, min, avg (avg reads the sum column with the count column as its count). */
const shape: Pick<ParallelShape, 'keyIndexes' | 'aggregates' | 'outputs'> = {
  keyIndexes: [0],
  aggregates: [
    { op: 'sum', fragmentIndex: 1, countIndex: -1 },
    { op: 'count', fragmentIndex: 2, countIndex: -1 },
    { op: 'min', fragmentIndex: 3, countIndex: -1 },
    { op: 'avg', fragmentIndex: 1, countIndex: 2 },
  ],
  outputs: [{ kind: 'key', fragmentIndex: 0 }, { kind: 'aggregate', aggregateIndex: 0 }, { kind: 'aggregate', aggregateIndex: 1 }, { kind: 'aggregate', aggregateIndex: 2 }, { kind: 'aggregate', aggregateIndex: 3 }],
};

test('groups merge in order of first appearance across slices, nulls ignored by sum, min and avg', (t) => {
  const first = partial(['b', null], [1.5, NaN], [2, 0], [7, INT_NULL]);
  const second = partial(['a', 'b', null], [4, 2.5, NaN], [1, 3, 0], [INT_NULL, 3, INT_NULL]);
  t.deepEqual(mergeAggregateRows(shape, [first, second]), [
    ['b', 4, 5, 3, 0.8],
    [null, null, 0, null, null],
    ['a', 4, 1, null, 4],
  ]);
});

test('a non-keyed aggregate merges every slice into one row, also when every slice was empty', (t) => {
  const nonKeyed: Pick<ParallelShape, 'keyIndexes' | 'aggregates' | 'outputs'> = {
    keyIndexes: [], aggregates: [{ op: 'count', fragmentIndex: 0, countIndex: -1 }, { op: 'max', fragmentIndex: 1, countIndex: -1 }],
    outputs: [{ kind: 'aggregate', aggregateIndex: 0 }, { kind: 'aggregate', aggregateIndex: 1 }],
  };
  const empty = (): ColumnBatch => ({ rowCount: 1, vectors: [{ type: 'LONG', data: Float64Array.of(0) }, { type: 'DOUBLE', data: Float64Array.of(NaN) }] });
  t.deepEqual(mergeAggregateRows(nonKeyed, [empty(), empty()]), [[0, null]]);
  const some: ColumnBatch = { rowCount: 1, vectors: [{ type: 'LONG', data: Float64Array.of(4) }, { type: 'DOUBLE', data: Float64Array.of(-1) }] };
  t.deepEqual(mergeAggregateRows(nonKeyed, [empty(), some, empty()]), [[4, -1]]);
});

test('key identity keeps a number apart from its text and null apart from the text null', (t) => {
  const keyed: Pick<ParallelShape, 'keyIndexes' | 'aggregates' | 'outputs'> = {
    keyIndexes: [0], aggregates: [{ op: 'count', fragmentIndex: 1, countIndex: -1 }],
    outputs: [{ kind: 'key', fragmentIndex: 0 }, { kind: 'aggregate', aggregateIndex: 0 }],
  };
  const batch: ColumnBatch = { rowCount: 3, vectors: [{ type: 'STRING', data: ['null', null, 'null'] }, { type: 'LONG', data: Float64Array.of(1, 2, 3) }] };
  t.deepEqual(mergeAggregateRows(keyed, [batch]), [['null', 4], [null, 2]]);
});

test('SAMPLE BY partials: the bucket both slices saw merges into one row, buckets keep the order a single thread meets them in', (t) => {
  const sampled: Pick<ParallelShape, 'keyIndexes' | 'aggregates' | 'outputs'> = {
    keyIndexes: [0], aggregates: [{ op: 'min', fragmentIndex: 1, countIndex: -1 }, { op: 'count', fragmentIndex: 2, countIndex: -1 }, { op: 'avg', fragmentIndex: 1, countIndex: 2 }],
    outputs: [{ kind: 'key', fragmentIndex: 0 }, { kind: 'aggregate', aggregateIndex: 0 }, { kind: 'aggregate', aggregateIndex: 1 }, { kind: 'aggregate', aggregateIndex: 2 }],
  };
  const hour = 3_600_000_000;
  const bucketed = (hours: readonly number[], sums: readonly number[], counts: readonly number[]): ColumnBatch => ({
    rowCount: hours.length,
    vectors: [{ type: 'TIMESTAMP', data: Float64Array.from(hours, (h) => h * hour) }, { type: 'DOUBLE', data: Float64Array.from(sums) }, { type: 'LONG', data: Float64Array.from(counts) }],
  });
  // The first slice ends inside hour 1 and the second starts there: hour 1 is one group, in first-seen order.
  const rows = mergeAggregateRows(sampled, [bucketed([0, 1], [4, 6], [2, 3]), bucketed([1, 2], [1, 8], [1, 4])]);
  t.deepEqual(rows, [[0, 4, 2, 2], [hour, 1, 4, 1.75], [2 * hour, 8, 4, 2]]);
});

test('two keys group by the pair: equal pairs merge, a pair differing in either key stays apart', (t) => {
  const pairs: Pick<ParallelShape, 'keyIndexes' | 'aggregates' | 'outputs'> = {
    keyIndexes: [0, 1], aggregates: [{ op: 'sum', fragmentIndex: 2, countIndex: -1 }],
    outputs: [{ kind: 'key', fragmentIndex: 0 }, { kind: 'key', fragmentIndex: 1 }, { kind: 'aggregate', aggregateIndex: 0 }],
  };
  const batch = (keys: readonly (readonly [string, number])[], sums: readonly number[]): ColumnBatch => ({
    rowCount: keys.length,
    vectors: [{ type: 'STRING', data: keys.map(([text]) => text) }, { type: 'INT', data: Int32Array.from(keys, ([, value]) => value) }, { type: 'DOUBLE', data: Float64Array.from(sums) }],
  });
  const rows = mergeAggregateRows(pairs, [batch([['a', 1], ['a', 2]], [1, 2]), batch([['b', 1], ['a', 1]], [4, 8])]);
  t.deepEqual(rows, [['a', 1, 9], ['a', 2, 2], ['b', 1, 4]]);
});

test('exact 64-bit sums wrap as a LONG sum does, while avg divides the unwrapped total', (t) => {
  const longs: Pick<ParallelShape, 'keyIndexes' | 'aggregates' | 'outputs'> = {
    keyIndexes: [], aggregates: [{ op: 'sum', fragmentIndex: 0, countIndex: -1 }, { op: 'avg', fragmentIndex: 0, countIndex: 1 }, { op: 'max', fragmentIndex: 0, countIndex: -1 }],
    outputs: [{ kind: 'aggregate', aggregateIndex: 0 }, { kind: 'aggregate', aggregateIndex: 1 }, { kind: 'aggregate', aggregateIndex: 2 }],
  };
  const max = 9223372036854775807n;
  const slice = (sum: bigint): ColumnBatch => ({
    rowCount: 1,
    vectors: [{ type: 'LONG', data: Float64Array.of(Number(sum)), exact: BigInt64Array.of(sum) }, { type: 'LONG', data: Float64Array.of(1) }],
  });
  const empty: ColumnBatch = { rowCount: 1, vectors: [{ type: 'LONG', data: Float64Array.of(NaN), exact: BigInt64Array.of(-9223372036854775808n) }, { type: 'LONG', data: Float64Array.of(0) }] };
  t.deepEqual(mergeAggregateRows(longs, [slice(max), empty, slice(max)]), [[-2n, Number(max), max]]);
});

test('top-k candidates concatenate in slice order with cells as plain values', (t) => {
  const one: ColumnBatch = { rowCount: 1, vectors: [symbolVector(['x']), { type: 'BOOLEAN', data: Int8Array.of(1) }] };
  const two: ColumnBatch = { rowCount: 2, vectors: [symbolVector([null, 'y']), { type: 'BOOLEAN', data: Int8Array.of(0, 1) }] };
  t.deepEqual(concatRows([one, two]), [['x', true], [null, false], ['y', true]]);
});

const columns = (...names: string[]): OutputColumn[] => names.map((name) => ({ name, type: 'DOUBLE' }));

test('aggregates split into partials: avg becomes a sum plus a trailing count', (t) => {
  const shapeOf = parallelShapeOf(parseStatement('select s, avg(v), count() from t where v > 0 order by 2 desc limit 3'), columns('s', 'avg', 'count'), () => 'ts');
  t.is(shapeOf?.kind, 'aggregate');
  t.deepEqual(shapeOf?.aggregates, [{ op: 'avg', fragmentIndex: 1, countIndex: 3 }, { op: 'count', fragmentIndex: 2, countIndex: -1 }]);
  t.deepEqual(shapeOf?.sortKeys, [{ index: 1, descending: true }]);
  t.deepEqual(shapeOf?.limit, { lo: 3, hi: undefined });
  const fragment = shapeOf?.fragment;
  t.true(fragment?.kind === 'query' && fragment.query.kind === 'select' && fragment.query.orderBy.length === 0 && fragment.query.limit === undefined && fragment.query.columns.length === 4);
});

test('statements that do not split exactly stay single-threaded', (t) => {
  const cases = [
    'select s, sum(v) from t group by s having sum(v) > 1',
    'select count(distinct s) from t',
    'select count(*), count() from t',
    'select sum(v) / count() from t',
    'select * from t order by v limit -3',
    'select * from t limit 10',
    'select s, sum(v) from t group by s, k',
    'select sum(v) from t where v in (select v from u)',
    'select ts, sum(v) from t sample by 1h fill(prev)',
    'select sum(v) from t sample by 1h',
    'select ts, sum(v) from t sample by 1h align to first observation',
    'select rnd_int(), count() from t',
    'select a.s, count() from t a join u b on a.s = b.s',
  ];
  for (const text of cases) t.is(parallelShapeOf(parseStatement(text), columns('a', 'b'), () => 'ts'), undefined, text);
});

test('row slices cover every row once, in table order, across partition boundaries', (t) => {
  const ranges = [5, 0, 7, 3].map((rowCount, partitionIndex) => ({ partitionIndex, lo: 0, hi: rowCount }));
  const slices = splitRows(ranges, 4);
  t.deepEqual(slices, [
    [{ partitionIndex: 0, lo: 0, hi: 4 }],
    [{ partitionIndex: 0, lo: 4, hi: 5 }, { partitionIndex: 2, lo: 0, hi: 3 }],
    [{ partitionIndex: 2, lo: 3, hi: 7 }],
    [{ partitionIndex: 3, lo: 0, hi: 3 }],
  ]);
});

test('row slices split only the rows a pruned scan reads', (t) => {
  const slices = splitRows([{ partitionIndex: 2, lo: 100, hi: 160 }, { partitionIndex: 3, lo: 0, hi: 40 }], 2);
  t.deepEqual(slices, [
    [{ partitionIndex: 2, lo: 100, hi: 150 }],
    [{ partitionIndex: 2, lo: 150, hi: 160 }, { partitionIndex: 3, lo: 0, hi: 40 }],
  ]);
});
