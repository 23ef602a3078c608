// GROUP BY <symbol> with sum/avg of one DOUBLE column assigns groups and sums in one pass; with a count(*) beside
// it the grouping takes the two-pass path (group ids, then the kernels). Both must give bit-identical sums, averages
// and counts, with null keys, null values, keys first met mid-batch and many batches, for a small dictionary (summed
// per slot), a large one (summed per group) and a scan whose last batch comes with another dictionary array.
import test from 'ava';
import { GroupByFactory } from '../../../../src/sql/exec/group-by.js';
import { SLOT_SUMS_SLOTS_MAX } from '../../../../src/sql/exec/symbol-slot-sums.js';
import type { AggregateSpec } from '../../../../src/sql/exec/group-by.js';
import type { ColumnBatch } from '../../../../src/sql/exec/batch.js';
import { createExecContext, drain } from '../../../../src/sql/exec/operator.js';
import { FixedBatchesFactory } from '../../../helpers/fixed-batches.js';
import { seededRandom } from '../../../helpers/seeded-random.js';
import { createRuntime } from '../../../../src/sql/codegen/runtime.js';
import type { OutputColumn } from '../../../../src/sql/bind/bound.js';

const COLUMNS: readonly OutputColumn[] = [{ name: 'sym', type: 'SYMBOL' }, { name: 'price', type: 'DOUBLE' }];
const SYMBOLS = symbolsOf(40);
/** More keys than symbol-slot-sums.ts sums per slot. */
const MANY_SYMBOLS = symbolsOf(SLOT_SUMS_SLOTS_MAX + 10);

function symbolsOf(count: number): string[] {
  return Array.from({ length: count }, (_, k) => `S${k}`);
}

/**
 * Keys drawn from a range that widens batch by batch (new keys appear mid-batch), one in ten null; values one in
 * eight null. `lastSymbols`: the dictionary array of the last batch (an equal copy makes the grouping leave its dense
 * array for the Map there).
 */
function batchesOf(batchCount: number, batchRows: number, seed: number, symbols = SYMBOLS, lastSymbols = symbols): ColumnBatch[] {
  const random = seededRandom(seed);
  return Array.from({ length: batchCount }, (_, b) => {
    const keys = new Int32Array(batchRows);
    const values = new Float64Array(batchRows);
    const keyRange = Math.min(symbols.length, symbols === SYMBOLS ? 3 + 4 * b : (b + 1) * 1000);
    for (let row = 0; row < batchRows; row++) {
      keys[row] = random() < 0.1 ? -1 : Math.floor(random() * keyRange);
      values[row] = random() < 0.125 ? NaN : (random() - 0.3) * 1e6;
    }
    return { rowCount: batchRows, vectors: [{ type: 'SYMBOL', data: keys, symbols: b === batchCount - 1 ? lastSymbols : symbols }, { type: 'DOUBLE', data: values }] };
  });
}

function spec(kind: AggregateSpec['kind'], argIndex: number): AggregateSpec {
  return { kind, argIndex, argType: argIndex < 0 ? undefined : 'DOUBLE', resultType: kind.startsWith('count') ? 'LONG' : 'DOUBLE', name: `${kind}${argIndex}` };
}

/** Rows of the result keyed by symbol text (null key as '<null>'), in output order: every aggregate column's value. */
function resultByKey(batches: readonly ColumnBatch[], specs: readonly AggregateSpec[]): Map<string, number[]> {
  const ctx = createExecContext(createRuntime(0), { deadlineMs: Date.now() + 60_000, cancelled: false }, 60_000);
  const rows = new Map<string, number[]>();
  for (const batch of drain(new GroupByFactory(new FixedBatchesFactory(COLUMNS, batches), 1, specs).open(ctx), ctx)) {
    const key = batch.vectors[0];
    for (let row = 0; row < batch.rowCount; row++) {
      const code = (key.data as Int32Array)[row];
      const text = code < 0 ? '<null>' : (key.symbols as readonly string[])[code];
      rows.set(text, specs.map((_, k) => Number(batch.vectors[1 + k].data[row])));
    }
  }
  return rows;
}

const CASES: readonly (readonly [string, () => ColumnBatch[]])[] = [
  ['one tiny batch', () => batchesOf(1, 5, 8)],
  ['small batches', () => batchesOf(12, 997, 19)],
  ['full batches', () => batchesOf(3, 65536, 10)],
  ['a large dictionary', () => batchesOf(6, 4000, 11, MANY_SYMBOLS)],
  ['another dictionary array last', () => batchesOf(5, 3000, 12, SYMBOLS, [...SYMBOLS])],
];

test('one-pass symbol sums equal the two-pass path bit for bit', (t) => {
  for (const [name, make] of CASES) {
    const batches = make();
    for (const specs of [[spec('avg', 1), spec('count_col', 1)], [spec('sum', 1)]]) {
      const fused = resultByKey(batches, specs);
      const twoPass = resultByKey(batches, [...specs, spec('count', -1)]);
      t.deepEqual([...fused.keys()], [...twoPass.keys()], `${name}: groups come in the order of their first rows`);
      for (const [key, values] of fused) {
        const expected = twoPass.get(key);
        t.truthy(expected, `${name}: group ${key} exists both ways`);
        values.forEach((value, k) => t.true(Object.is(value, expected?.[k]), `${name}: ${key} ${specs[k]?.name}: ${value} vs ${expected?.[k]}`));
      }
    }
  }
});
