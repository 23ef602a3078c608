// SAMPLE BY over a TIMESTAMP_NS designated timestamp. Buckets are whole µs or coarser, so the sampler works on
// the exact µs floor of each ns value (computed here from the exact int64s: a double's rounding would move rows
// within ~128 ns of a boundary into the next bucket), and the bucket starts it returns become exact ns again.
import type { ColumnBatch, Vector } from './batch.js';
import type { Cursor, ExecContext, QueryFactory } from './operator.js';
import type { OutputColumn } from '../bind/bound.js';
import { assert } from '../../core/assert.js';
import { INT64_NULL, nanosAt } from '../../types/timestamp-ns.js';

/** The µs floors of a TIMESTAMP_NS vector, as a TIMESTAMP vector (exact: |µs| < 2^53). */
export function microsVectorOfNanos(vector: Vector, rowCount: number): Vector {
  assert(vector.type === 'TIMESTAMP_NS', 'µs floors are taken of ns timestamps');
  const data = vector.data as Float64Array;
  const micros = new Float64Array(rowCount);
  for (let row = 0; row < rowCount; row++) {
    const nanos = nanosAt(data, vector.exact, row);
    if (nanos === undefined) micros[row] = NaN;
    else {
      const floor = nanos / 1000n;
      micros[row] = Number(floor * 1000n > nanos ? floor - 1n : floor);
    }
  }
  return { type: 'TIMESTAMP', data: micros };
}

/** `batch` with its first column (the ns designated timestamp) as µs floors. */
export function microsBatchOfNanos(batch: ColumnBatch): ColumnBatch {
  const vectors = batch.vectors.slice();
  vectors[0] = microsVectorOfNanos(batch.vectors[0], batch.rowCount);
  return { rowCount: batch.rowCount, vectors };
}

/** µs bucket starts (column 0 of a sampled result) as exact TIMESTAMP_NS. */
function nanosVectorOfMicros(vector: Vector, rowCount: number): Vector {
  const micros = vector.data as Float64Array;
  const exact = new BigInt64Array(rowCount);
  const data = new Float64Array(rowCount);
  for (let row = 0; row < rowCount; row++) {
    const value = micros[row];
    exact[row] = value !== value ? INT64_NULL : BigInt(value) * 1000n;
    data[row] = value !== value ? NaN : value * 1000;
  }
  return { type: 'TIMESTAMP_NS', data, exact };
}

/** Owns `child` (a sampled result whose column 0 is µs bucket starts): yields them as TIMESTAMP_NS. */
export class NanosBucketFactory implements QueryFactory {
  readonly columns: readonly OutputColumn[];
  readonly timestampIndex: number;

  constructor(private readonly child: QueryFactory) {
    assert(child.columns[0]?.type === 'TIMESTAMP', 'sampled buckets start with µs timestamps');
    this.columns = [{ ...child.columns[0], type: 'TIMESTAMP_NS' }, ...child.columns.slice(1)];
    this.timestampIndex = child.timestampIndex;
  }

  open(ctx: ExecContext): Cursor {
    const input = this.child.open(ctx);
    return {
      nextBatch: (): ColumnBatch | undefined => {
        const batch = input.nextBatch();
        if (batch === undefined) return undefined;
        const vectors = batch.vectors.slice();
        vectors[0] = nanosVectorOfMicros(batch.vectors[0], batch.rowCount);
        return { rowCount: batch.rowCount, vectors };
      },
      close: () => input.close(),
    };
  }

  explain(depth: number): string[] {
    return this.child.explain(depth);
  }
}
