// Where rows go: partition start, name and end for a designated timestamp under a PARTITION BY unit,
// plus the ordering helpers the writer uses (stable sort permutation, merge of two sorted runs).
import type { PartitionUnit } from '../types/timestamp.js';
import { partitionCeilExclusive, partitionFloor, partitionName } from '../types/timestamp.js';
import type { ColumnData } from './row-chunk.js';
import { assert } from '../core/assert.js';

export const DEFAULT_PARTITION = 'default';

export interface PartitionSpan {
  readonly name: string;
  readonly start: number;
  /** Exclusive end in µs; Infinity for PARTITION BY NONE. */
  readonly end: number;
}

export function partitionSpanOf(timestamp: number, unit: PartitionUnit): PartitionSpan {
  if (unit === 'NONE') return { name: DEFAULT_PARTITION, start: -Infinity, end: Infinity };
  const start = partitionFloor(timestamp, unit);
  return { name: partitionName(timestamp, unit), start, end: partitionCeilExclusive(timestamp, unit) };
}

/** Designated timestamps of a fixed int64 column as numbers (µs). */
export function timestampsOf(column: ColumnData, rowCount: number): Float64Array {
  assert(column.kind === 'fixed' && column.width === 8, 'designated timestamp column is fixed 8-byte');
  const bytes = column.bytes;
  const words = bytes.byteOffset % 4 === 0
    ? new Int32Array(bytes.buffer, bytes.byteOffset, rowCount * 2)
    : new Int32Array(Uint8Array.from(bytes).buffer, 0, rowCount * 2);
  const out = new Float64Array(rowCount);
  for (let row = 0; row < rowCount; row++) {
    out[row] = (words[2 * row + 1] as number) * 4294967296 + ((words[2 * row] as number) >>> 0);
  }
  return out;
}

export function isAscending(values: Float64Array): boolean {
  for (let k = 1; k < values.length; k++) {
    if ((values[k] as number) < (values[k - 1] as number)) return false;
  }
  return true;
}

/** Row order that sorts `values` ascending, keeping equal values in their original order. */
export function stableSortPermutation(values: Float64Array): Int32Array {
  const order = new Int32Array(values.length);
  for (let k = 0; k < order.length; k++) order[k] = k;
  order.sort((a, b) => (values[a] as number) - (values[b] as number) || a - b);
  return order;
}

/**
 * Merges two ascending runs: indexes < left.length refer to `left`, the rest to `right` (offset by left.length).
 * On equal timestamps rows of `left` (already committed) come first.
 */
export function mergePermutation(left: Float64Array, right: Float64Array): Int32Array {
  const order = new Int32Array(left.length + right.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < left.length && j < right.length) {
    if ((left[i] as number) <= (right[j] as number)) order[k++] = i++;
    else order[k++] = left.length + j++;
  }
  while (i < left.length) order[k++] = i++;
  while (j < right.length) order[k++] = left.length + j++;
  return order;
}
