// Where rows go: partition start, name and end for a designated timestamp under a PARTITION BY unit,
// plus the ordering helpers the writer uses (stable sort permutation, merge of two sorted runs).
import type { PartitionUnit } from '../types/timestamp.js';
import { partitionCeilExclusive, partitionFloor, partitionName } from '../types/timestamp.js';
import type { ColumnData } from './row-chunk.js';
import { assert } from '../core/assert.js';
import { microsFloorOfNanos } from '../types/timestamp-ns.js';
import { freshMemory, type ScratchMemory } from '../core/scratch-memory.js';

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

/**
 * The values rows are ordered by: the µs numbers themselves for TIMESTAMP, the exact int64 nanoseconds for
 * TIMESTAMP_NS (a double cannot tell apart ns values less than ~256 ns apart at today's dates).
 */
export type TimestampKeys = Float64Array | BigInt64Array;

/**
 * Designated timestamps of a fixed int64 column as µs numbers; for a TIMESTAMP_NS column (`nanos`) the µs
 * floor of each value, so partition spans and partition metadata stay in µs for both kinds.
 */
export function timestampsOf(column: ColumnData, rowCount: number, nanos = false, into?: Float64Array): Float64Array {
  const words = int64WordsOf(column, rowCount);
  assert(into === undefined || into.length === rowCount, 'timestamps are read into an array of rowCount values');
  const out = into ?? new Float64Array(rowCount);
  // The loops live in functions of their own: inline here, V8 deoptimized this function on its first large
  // value ("lost precision") and on the untaken nanos branch, and ran it unoptimized at ~50 ns a row, which
  // was a fifth of the primary's ILP commit time.
  if (nanos) nanosWordsToMicros(new BigInt64Array(words.buffer, words.byteOffset, rowCount), out, rowCount);
  else wordsToNumbers(words, out, rowCount);
  return out;
}

/** `out[row]` = the int64 of words 2·row (low) and 2·row + 1 (high), as a number (exact below 2^53). */
function wordsToNumbers(words: Int32Array, out: Float64Array, rowCount: number): void {
  for (let row = 0; row < rowCount; row++) out[row] = words[2 * row + 1] * 4294967296 + (words[2 * row] >>> 0);
}

/** The µs floor of each ns value: the double of a ns value may round across a µs boundary, the int64 does not. */
function nanosWordsToMicros(exact: BigInt64Array, out: Float64Array, rowCount: number): void {
  for (let row = 0; row < rowCount; row++) out[row] = microsFloorOfNanos(exact[row]);
}

/** The order keys of a designated timestamp column (see TimestampKeys); µs keys in `memory`. */
export function timestampKeysOf(column: ColumnData, rowCount: number, nanos: boolean, memory: ScratchMemory = freshMemory): TimestampKeys {
  if (!nanos) return timestampsOf(column, rowCount, false, memory.float64(rowCount));
  const words = int64WordsOf(column, rowCount);
  return new BigInt64Array(words.buffer, words.byteOffset, rowCount).slice();
}

function int64WordsOf(column: ColumnData, rowCount: number): Int32Array {
  assert(column.kind === 'fixed' && column.width === 8, 'designated timestamp column is fixed 8-byte');
  const bytes = column.bytes;
  return bytes.byteOffset % 8 === 0
    ? new Int32Array(bytes.buffer, bytes.byteOffset, rowCount * 2)
    : new Int32Array(new Uint8Array(bytes.subarray(0, rowCount * 8)).buffer, 0, rowCount * 2);
}

export function isAscending(values: TimestampKeys): boolean {
  for (let k = 1; k < values.length; k++) {
    if (values[k] < values[k - 1]) return false;
  }
  return true;
}

/** Ascending runs at most this many makes stableSortPermutation merge them instead of sorting. */
const NATURAL_RUNS_MAX = 64;

/**
 * Row order that sorts `values` ascending, keeping equal values in their original order. Rows that are a few
 * ascending runs (a group commit's requests, each in time order) are merged run by run, stably; others are sorted.
 * The permutation and its merge buffer come from `memory`.
 */
export function stableSortPermutation(values: TimestampKeys, memory: ScratchMemory = freshMemory): Int32Array {
  const order = memory.int32(values.length);
  for (let k = 0; k < order.length; k++) order[k] = k;
  const merged = mergeNaturalRuns(values, order, memory);
  if (merged !== undefined) return merged;
  if (values instanceof Float64Array) order.sort((a, b) => values[a] - values[b] || a - b);
  else order.sort((a, b) => (values[a] < values[b] ? -1 : values[a] > values[b] ? 1 : a - b));
  return order;
}

/** The identity `order` merged run by run (pairwise, stable), or undefined past NATURAL_RUNS_MAX runs. */
function mergeNaturalRuns(values: TimestampKeys, order: Int32Array, memory: ScratchMemory): Int32Array | undefined {
  const bounds: number[] = [0];
  for (let k = 1; k < values.length; k++) {
    if (values[k] < values[k - 1]) {
      if (bounds.length === NATURAL_RUNS_MAX) return undefined;
      bounds.push(k);
    }
  }
  bounds.push(values.length);
  let from = order;
  let to = memory.int32(values.length);
  let runs = bounds;
  while (runs.length > 2) {
    const next: number[] = [0];
    for (let r = 0; r + 1 < runs.length; r += 2) {
      const end = r + 2 < runs.length ? runs[r + 2] : runs[r + 1];
      mergeTwoRuns(values, from, to, runs[r], runs[r + 1], end);
      next.push(end);
    }
    [from, to] = [to, from];
    runs = next;
  }
  return from;
}

/** Merges rows from[start..middle) and from[middle..end) into to[start..end); the first run wins ties. */
function mergeTwoRuns(values: TimestampKeys, from: Int32Array, to: Int32Array, start: number, middle: number, end: number): void {
  let i = start;
  let j = middle;
  let k = start;
  while (i < middle && j < end) {
    if (values[from[j]] < values[from[i]]) to[k++] = from[j++];
    else to[k++] = from[i++];
  }
  while (i < middle) to[k++] = from[i++];
  while (j < end) to[k++] = from[j++];
}

/** `keys` in the row order `order` (µs keys in `memory`). */
export function gatherKeys(keys: TimestampKeys, order: Int32Array, memory: ScratchMemory = freshMemory): TimestampKeys {
  if (keys instanceof Float64Array) {
    const out = memory.float64(order.length);
    for (let k = 0; k < order.length; k++) out[k] = keys[order[k]];
    return out;
  }
  const out = new BigInt64Array(order.length);
  for (let k = 0; k < order.length; k++) out[k] = keys[order[k]];
  return out;
}

/**
 * Merges two ascending runs: indexes < left.length refer to `left`, the rest to `right` (offset by left.length).
 * On equal timestamps rows of `left` (already committed) come first.
 */
export function mergePermutation(left: TimestampKeys, right: TimestampKeys): Int32Array {
  const order = new Int32Array(left.length + right.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < left.length && j < right.length) {
    if (left[i] <= right[j]) order[k++] = i++;
    else order[k++] = left.length + j++;
  }
  while (i < left.length) order[k++] = i++;
  while (j < right.length) order[k++] = left.length + j++;
  return order;
}

/**
 * The merge of mergePermutation as runs of consecutive rows from one side: [side, start, end) triples, side 0
 * for `left`, 1 for `right`; undefined when it takes more than `runsMax` runs. Requests of concurrent clients,
 * each in time order but committed in another order, merge in a few long runs that can be copied as they are.
 */
export function mergeRuns(left: TimestampKeys, right: TimestampKeys, runsMax: number): Int32Array | undefined {
  const runs = new Int32Array(runsMax * 3);
  let count = 0;
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    if (count === runsMax) return undefined;
    const fromLeft = j >= right.length || (i < left.length && left[i] <= right[j]);
    const start = fromLeft ? i : j;
    if (fromLeft) {
      // Committed rows first on equal keys: the left run takes every row up to the next right key.
      if (j >= right.length) i = left.length;
      else while (i < left.length && left[i] <= right[j]) i++;
    } else if (i >= left.length) {
      j = right.length;
    } else {
      while (j < right.length && right[j] < left[i]) j++;
    }
    runs[count * 3] = fromLeft ? 0 : 1;
    runs[count * 3 + 1] = start;
    runs[count * 3 + 2] = fromLeft ? i : j;
    count++;
  }
  return runs.subarray(0, count * 3);
}
