// Join output assembly shared by the hash, as-of and splice joins: every output column is taken from the
// left batch or from the materialised right side, gathered by row index. An index of -1 produces the
// column type's NULL (outer rows, as-of rows without a match), so no per-row objects are ever built.
import type { ValueType } from '../../types/column-type.js';
import { vectorKindOfType } from '../../types/column-type.js';
import type { ColumnBatch, NumericVectorData, Vector, VectorData } from './batch.js';
import { allocateVectorData } from './batch.js';
import { assert } from '../../core/assert.js';
import type { JoinOutputColumn } from '../plan/plan-specs.js';
export type { JoinOutputColumn };

const INT64_NULL = -(2n ** 63n);

/** The value a typed-array vector stores for NULL (0 for types that cannot hold NULL). */
export function nullStorageValue(type: ValueType): number {
  switch (type) {
    case 'INT': return -2147483648;
    case 'SYMBOL': return -1;
    case 'LONG': case 'DATE': case 'TIMESTAMP': case 'TIMESTAMP_NS': case 'DOUBLE': case 'FLOAT': return NaN;
    default: return 0;
  }
}

function gatherFloat64(source: Float64Array, out: Float64Array, rows: Int32Array, count: number): void {
  for (let k = 0; k < count; k++) {
    const row = rows[k];
    out[k] = row < 0 ? NaN : source[row];
  }
}

function gatherInt32(source: Int32Array, out: Int32Array, rows: Int32Array, count: number, nullValue: number): void {
  for (let k = 0; k < count; k++) {
    const row = rows[k];
    out[k] = row < 0 ? nullValue : source[row];
  }
}

function gatherOther(source: NumericVectorData, out: NumericVectorData, rows: Int32Array, count: number, nullValue: number): void {
  for (let k = 0; k < count; k++) {
    const row = rows[k];
    out[k] = row < 0 ? nullValue : source[row];
  }
}

function gatherObjects(source: readonly unknown[], out: unknown[], rows: Int32Array, count: number): void {
  for (let k = 0; k < count; k++) {
    const row = rows[k];
    out[k] = row < 0 ? null : source[row];
  }
}

/** Rows `rows[0..count)` of a vector; -1 reads as NULL. Keeps the SYMBOL dictionary and exact 64-bit values. */
export function gatherOrNull(vector: Vector, rows: Int32Array, count: number): Vector {
  const type = vector.type;
  const out = allocateVectorData(type, count);
  const source = vector.data;
  switch (vectorKindOfType(type)) {
    case 'f64': gatherFloat64(source as Float64Array, out as Float64Array, rows, count); break;
    case 'i32': gatherInt32(source as Int32Array, out as Int32Array, rows, count, nullStorageValue(type)); break;
    case 'str': case 'bin': gatherObjects(source as unknown[], out as unknown[], rows, count); break;
    default: gatherOther(source as NumericVectorData, out as NumericVectorData, rows, count, nullStorageValue(type)); break;
  }
  if (vector.symbols !== undefined) return { type, data: out, symbols: vector.symbols };
  if (vector.exact === undefined) return { type, data: out };
  const exact = new BigInt64Array(count);
  for (let k = 0; k < count; k++) {
    const row = rows[k];
    exact[k] = row < 0 ? INT64_NULL : vector.exact[row];
  }
  return { type, data: out, exact };
}

/**
 * One output batch of `count` rows. `leftRows` undefined means the left batch's rows in order (as-of joins
 * keep every left row), so left vectors pass through without a copy.
 */
export function assembleJoinBatch(
  outputs: readonly JoinOutputColumn[], left: ColumnBatch, leftRows: Int32Array | undefined, right: ColumnBatch, rightRows: Int32Array, count: number,
): ColumnBatch {
  assert(leftRows !== undefined || count === left.rowCount, 'a pass-through left side keeps the batch row count');
  const vectors = outputs.map((output): Vector => {
    if (output.side === 'left') {
      const vector = left.vectors[output.index];
      return leftRows === undefined ? vector : gatherOrNull(vector, leftRows, count);
    }
    return gatherOrNull(right.vectors[output.index], rightRows, count);
  });
  return { rowCount: count, vectors };
}

/** A growable pair of row-index arrays: the (left row, right row) pairs a join produces for one output chunk. */
export class RowPairs {
  left = new Int32Array(1024);
  right = new Int32Array(1024);
  count = 0;

  push(leftRow: number, rightRow: number): void {
    if (this.count === this.left.length) this.grow();
    this.left[this.count] = leftRow;
    this.right[this.count] = rightRow;
    this.count++;
  }

  clear(): void {
    this.count = 0;
  }

  private grow(): void {
    const left = new Int32Array(this.left.length * 2);
    const right = new Int32Array(this.right.length * 2);
    left.set(this.left);
    right.set(this.right);
    this.left = left;
    this.right = right;
  }
}

/** An empty vector data array for a type, for batches with no rows. */
export function emptyData(type: ValueType): VectorData {
  return allocateVectorData(type, 0);
}
