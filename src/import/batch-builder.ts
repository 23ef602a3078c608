// Builds the ColumnBatch objects an import emits: fresh vectors per batch (the consumer may keep a batch, so
// nothing is reused after it is handed over), null filling for table columns the file does not have, and
// in-place removal of rejected rows (atomicity=skipRow, or a bad designated timestamp).
import { assert } from '../core/assert.js';
import type { ColumnType } from '../types/column-type.js';
import { VECTOR_KIND } from '../types/column-type.js';
import { INT_NULL, SYMBOL_NULL_KEY } from '../types/nulls.js';
import { allocateVectorData, type ColumnBatch, type Vector, type VectorData } from '../sql/exec/batch.js';
import { batchRowsMax } from '../core/limits.js';
import type { ColumnTarget } from './column-target.js';

interface MutableTarget extends ColumnTarget {
  data: VectorData;
  exactWords: Int32Array | null;
  exact: BigInt64Array | null;
}

export class BatchBuilder {
  readonly types: ReadonlyArray<ColumnType>;
  readonly capacity: number;
  readonly targets: MutableTarget[] = [];
  rowCount = 0;

  constructor(types: ReadonlyArray<ColumnType>, capacity: number) {
    assert(capacity >= 1 && capacity <= batchRowsMax, `batch capacity ${capacity} must lie in [1, batchRowsMax]`);
    this.types = types;
    this.capacity = capacity;
    this.begin();
  }

  /** Starts a new batch with newly allocated vectors. */
  begin(): void {
    this.rowCount = 0;
    this.targets.length = 0;
    for (const type of this.types) {
      const data = type === 'STRING' || type === 'VARCHAR' || type === 'UUID'
        ? new Array<string | null>(this.capacity) : allocateVectorData(type, this.capacity);
      const exact = type === 'LONG' ? new BigInt64Array(this.capacity) : null;
      const exactWords = exact === null ? null : new Int32Array(exact.buffer);
      this.targets.push({ data, exact, exactWords });
    }
  }

  remaining(): number {
    return this.capacity - this.rowCount;
  }

  /** Writes nulls into rows [base, base + count) of column col (a table column the file does not supply). */
  fillNull(col: number, base: number, count: number): void {
    const target = this.targets[col];
    const type = this.types[col];
    const data = target.data;
    const end = base + count;
    if (Array.isArray(data)) {
      for (let r = base; r < end; r++) data[r] = null;
    } else if (data instanceof Float64Array || data instanceof Float32Array) {
      data.fill(NaN, base, end);
    } else if (data instanceof Int32Array) {
      data.fill(type === 'INT' ? INT_NULL : type === 'SYMBOL' ? SYMBOL_NULL_KEY : 0, base, end);
    } else {
      data.fill(0, base, end);
    }
    if (target.exactWords !== null) {
      for (let r = base; r < end; r++) {
        target.exactWords[r * 2] = 0;
        target.exactWords[r * 2 + 1] = -2147483648;
      }
    }
  }

  /**
   * Drops rows of [base, base + count) whose rowBad flag (indexed from base) is set, moving later rows down.
   * Returns how many rows were kept.
   */
  compact(base: number, count: number, rowBad: Uint8Array): number {
    let kept = 0;
    for (const target of this.targets) {
      kept = compactVector(target.data, base, count, rowBad);
      if (target.exactWords !== null) compactWords(target.exactWords, base, count, rowBad);
    }
    return kept;
  }

  /** The finished batch; vectors are trimmed to rowCount without copying. */
  build(symbolsOf: (col: number) => string[] | undefined): ColumnBatch {
    const vectors: Vector[] = [];
    for (let c = 0; c < this.types.length; c++) {
      const type = this.types[c];
      const target = this.targets[c];
      const data = trim(target.data, this.rowCount);
      const vector: Vector = type === 'LONG' && target.exact !== null
        ? { type, data, exact: target.exact.subarray(0, this.rowCount) }
        : type === 'SYMBOL' ? { type, data, symbols: symbolsOf(c) ?? [] } : { type, data };
      assert(VECTOR_KIND[type] !== 'str' || Array.isArray(data), 'string-like vectors are arrays');
      vectors.push(vector);
    }
    return { rowCount: this.rowCount, vectors };
  }
}

function trim(data: VectorData, rowCount: number): VectorData {
  if (Array.isArray(data)) {
    data.length = rowCount;
    return data;
  }
  return data.subarray(0, rowCount);
}

function compactVector(data: VectorData, base: number, count: number, rowBad: Uint8Array): number {
  let write = base;
  for (let r = 0; r < count; r++) {
    if (rowBad[r] !== 0) continue;
    if (write !== base + r) data[write] = data[base + r];
    write++;
  }
  return write - base;
}

function compactWords(words: Int32Array, base: number, count: number, rowBad: Uint8Array): void {
  let write = base;
  for (let r = 0; r < count; r++) {
    if (rowBad[r] !== 0) continue;
    words[write * 2] = words[(base + r) * 2];
    words[write * 2 + 1] = words[(base + r) * 2 + 1];
    write++;
  }
}
