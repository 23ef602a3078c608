// ColumnBatch: the unit that flows between operators, into the table writer and out to result writers.
// A batch holds up to batchRowsMax rows as one vector per column; vectors never change after they are built.
import type { ValueType, VectorKind } from '../../types/column-type.js';
import { vectorKindOfType } from '../../types/column-type.js';
import { assert } from '../../core/assert.js';

export type NumericVectorData = Float64Array | Float32Array | Int32Array | Int16Array | Uint16Array | Int8Array;
export type VectorData = NumericVectorData | (string | null)[] | (Uint8Array | null)[];

export interface Vector {
  readonly type: ValueType;
  /** Values for rows [0, rowCount) of the batch; the array may be longer. Layout per vectorKindOfType(type). */
  readonly data: VectorData;
  /**
   * LONG/DATE/TIMESTAMP only: the exact 64-bit values (Long.MIN_VALUE = null), present when the vector
   * came straight from storage or a literal. `data` then holds the same values as numbers.
   */
  readonly exact?: BigInt64Array;
  /** SYMBOL only: key → text. Keys in `data` index into it; -1 is null. */
  readonly symbols?: readonly string[];
}

export interface ColumnBatch {
  readonly rowCount: number;
  readonly vectors: readonly Vector[];
}

export function vectorKindOf(vector: Vector): VectorKind {
  return vectorKindOfType(vector.type);
}

/** Allocates an empty vector data array of the layout a type needs. */
export function allocateVectorData(type: ValueType, length: number): VectorData {
  switch (vectorKindOfType(type)) {
    case 'f64': return new Float64Array(length);
    case 'f32': return new Float32Array(length);
    case 'i32': return new Int32Array(length);
    case 'i16': return new Int16Array(length);
    case 'u16': return new Uint16Array(length);
    case 'i8': return new Int8Array(length);
    case 'str': return new Array<string | null>(length).fill(null);
    case 'bin': return new Array<Uint8Array | null>(length).fill(null);
  }
}

export function assertBatch(batch: ColumnBatch, columnCount: number, why: string): void {
  assert(batch.vectors.length === columnCount, `${why}: batch has ${batch.vectors.length} vectors, expected ${columnCount}`);
  for (const vector of batch.vectors) {
    assert(vector.data.length >= batch.rowCount, `${why}: vector shorter than the batch`);
  }
}
