// Shapes shared by the column parsers and the batch builder: where a parser writes a column's values for one
// batch, and the per-call statistics it reports back. Kept apart so neither side imports the other.
import { assert } from '../core/assert.js';
import type { VectorData } from '../sql/exec/batch.js';

/** One column of the batch being built; parsers write rows [base, base + rowCount) of `data`. */
export interface ColumnTarget {
  readonly data: VectorData;
  /** LONG only: little-endian int32 word pairs over the batch's `exact` BigInt64Array. */
  readonly exactWords: Int32Array | null;
}

/** Filled by a parser call: the first block row whose value failed, or -1. */
export interface ParseStats {
  firstBadRow: number;
}

/**
 * Inputs of one parser call: the lexed block (fields of row r, column col at slot r * width + col) and where
 * to report bad rows. rowBad is indexed by block row; a parser sets it only when markRows is true.
 */
export interface ParseJob {
  buf: Buffer;
  fieldStart: Int32Array;
  fieldEnd: Int32Array;
  fieldEscaped: Uint8Array;
  width: number;
  col: number;
  rowCount: number;
  base: number;
  rowBad: Uint8Array;
  markRows: boolean;
  /** The designated timestamp: a null is an error too, because a row cannot be stored without it. */
  nullIsError: boolean;
  stats: ParseStats;
}

export function targetFloat64(target: ColumnTarget): Float64Array {
  assert(target.data instanceof Float64Array, 'column target must be a Float64Array for this type');
  return target.data;
}

export function targetInt32(target: ColumnTarget): Int32Array {
  assert(target.data instanceof Int32Array, 'column target must be an Int32Array for this type');
  return target.data;
}

export function targetStrings(target: ColumnTarget): (string | null)[] {
  assert(Array.isArray(target.data), 'column target must be a string array for this type');
  return target.data as (string | null)[];
}
