// ORDER BY ... LIMIT n screens rows against the n-th best value seen so far: whatever the direction, the null
// placement, the ties and the batch boundaries, its rows must be exactly the first n rows of the full stable sort.
import test from 'ava';
import { TopNFactory } from '../../../../src/sql/exec/top-n.js';
import { SortFactory } from '../../../../src/sql/exec/sort.js';
import type { SortKey } from '../../../../src/sql/exec/sort.js';
import type { ColumnBatch } from '../../../../src/sql/exec/batch.js';
import type { QueryFactory } from '../../../../src/sql/exec/operator.js';
import { createExecContext, drain } from '../../../../src/sql/exec/operator.js';
import { FixedBatchesFactory } from '../../../helpers/fixed-batches.js';
import { seededRandom } from '../../../helpers/seeded-random.js';
import { createRuntime } from '../../../../src/sql/codegen/runtime.js';
import type { OutputColumn } from '../../../../src/sql/bind/bound.js';

const COLUMNS: readonly OutputColumn[] = [{ name: 'v', type: 'DOUBLE' }, { name: 'row', type: 'INT' }];

/** Deterministic values with many ties and about one null (NaN) in eight, cut into batches of `batchRows`. */
function batchesOf(rowCount: number, batchRows: number, seed: number): ColumnBatch[] {
  const random = seededRandom(seed);
  const batches: ColumnBatch[] = [];
  for (let lo = 0; lo < rowCount; lo += batchRows) {
    const count = Math.min(batchRows, rowCount - lo);
    const values = new Float64Array(count);
    const rows = new Int32Array(count);
    for (let k = 0; k < count; k++) {
      values[k] = random() < 0.125 ? NaN : Math.floor(random() * 200) - 100 + (random() < 0.5 ? 0.5 : 0);
      rows[k] = lo + k;
    }
    batches.push({ rowCount: count, vectors: [{ type: 'DOUBLE', data: values }, { type: 'INT', data: rows }] });
  }
  return batches;
}

function rowsOf(factory: QueryFactory): number[] {
  const ctx = createExecContext(createRuntime(0), { deadlineMs: Date.now() + 60_000, cancelled: false }, 60_000);
  const out: number[] = [];
  for (const batch of drain(factory.open(ctx), ctx)) {
    const rows = batch.vectors[1].data as Int32Array;
    for (let k = 0; k < batch.rowCount; k++) out.push(rows[k]);
  }
  return out;
}

const KEYS: readonly SortKey[] = [
  { index: 0, descending: true },
  { index: 0, descending: false },
  { index: 0, descending: true, nullsFirst: true },
  { index: 0, descending: false, nullsFirst: false },
  { index: 0, descending: true, nullsFirst: false },
  { index: 0, descending: false, nullsFirst: true },
];

test('top-N rows equal the first rows of the full stable sort', (t) => {
  let cases = 0;
  for (const key of KEYS) {
    for (const keepRows of [0, 1, 3, 10, 64]) {
      for (const [rowCount, batchRows] of [[5, 4], [300, 7], [5000, 1024]]) {
        const batches = batchesOf(rowCount, batchRows, 17 + cases);
        const sorted = rowsOf(new SortFactory(new FixedBatchesFactory(COLUMNS, batches), [key])).slice(0, keepRows);
        const top = rowsOf(new TopNFactory(new FixedBatchesFactory(COLUMNS, batches), [key], keepRows));
        t.deepEqual(top, sorted, `key ${JSON.stringify(key)}, limit ${keepRows}, ${rowCount} rows in batches of ${batchRows}`);
        cases++;
      }
    }
  }
  t.is(cases, KEYS.length * 5 * 3);
});

test('a table with fewer values than the limit ends with its nulls when nulls sort last', (t) => {
  const values = Float64Array.from([NaN, 3, NaN, 1, NaN]);
  const rows = Int32Array.from([0, 1, 2, 3, 4]);
  const batches: ColumnBatch[] = [{ rowCount: 5, vectors: [{ type: 'DOUBLE', data: values }, { type: 'INT', data: rows }] }];
  t.deepEqual(rowsOf(new TopNFactory(new FixedBatchesFactory(COLUMNS, batches), [{ index: 0, descending: true, nullsFirst: false }], 4)), [1, 3, 0, 2]);
  t.deepEqual(rowsOf(new TopNFactory(new FixedBatchesFactory(COLUMNS, batches), [{ index: 0, descending: false, nullsFirst: false }], 3)), [3, 1, 0]);
});
