// Shapes shared by the column parsers and the batch builder: where a parser writes a column's values for one
// batch (already in storage form, so the staging segment and the commit copy bytes instead of converting
// them), and the per-call statistics it reports back. Kept apart so neither side imports the other.
import { assert } from '../core/assert.js';

/**
 * Variable-size values as [int32 length][utf8] records (length -1 = null), the column-file layout. Row r spans
 * [offsets[r], offsets[r + 1]); a parser writing row r starts at offsets[r] and sets offsets[r + 1].
 */
export class TextRecords {
  bytes: Buffer;
  readonly offsets: Float64Array;

  constructor(rowCapacity: number, bytesPerRowGuess: number) {
    this.bytes = Buffer.allocUnsafe(Math.max(64, rowCapacity * bytesPerRowGuess));
    this.offsets = new Float64Array(rowCapacity + 1);
  }

  /** Makes room for `extra` more bytes after `position`, keeping the bytes before it. */
  reserve(position: number, extra: number): Buffer {
    if (position + extra <= this.bytes.length) return this.bytes;
    const grown = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, position + extra));
    this.bytes.copy(grown, 0, 0, position);
    this.bytes = grown;
    return grown;
  }
}

/**
 * Storage-form values of one column: a typed view over its column-file bytes (64-bit integers and
 * timestamps as little-endian int32 word pairs), or text records.
 */
export type TargetData = Float64Array | Float32Array | Int32Array | Int16Array | Uint16Array | Int8Array | TextRecords;

/** One column of the batch being built; parsers write rows [base, base + rowCount) of `data`. */
export interface ColumnTarget {
  readonly data: TargetData;
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

/** LONG, DATE and TIMESTAMP: two int32 words per row, low word first. */
export function targetInt64Words(target: ColumnTarget): Int32Array {
  return targetInt32(target);
}

export function targetText(target: ColumnTarget): TextRecords {
  assert(target.data instanceof TextRecords, 'column target must be text records for this type');
  return target.data;
}
