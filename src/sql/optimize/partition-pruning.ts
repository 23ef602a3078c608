// Timestamp intervals → the row ranges of a pinned table snapshot that can hold matching rows. Partitions whose
// [min, max] timestamps miss every interval are skipped from metadata alone; inside a partition rows are sorted by
// the designated timestamp, so each interval's bounds are found by binary search over the mapped column.
import type { TableSnapshot } from '../../storage/table-reader.js';
import type { TimestampInterval } from '../../types/intervals.js';
import { assert } from '../../core/assert.js';

/** Rows [lo, hi) of one partition; the shape the table scan consumes. */
export interface RowRange {
  readonly partitionIndex: number;
  readonly lo: number;
  readonly hi: number;
}

export function pruneToRowRanges(snapshot: TableSnapshot, intervals: readonly TimestampInterval[]): RowRange[] {
  const timestampColumn = snapshot.meta.timestampIndex;
  assert(timestampColumn >= 0, 'interval pruning is only planned for tables with a designated timestamp');
  const ranges: RowRange[] = [];
  snapshot.partitions.forEach((partition, partitionIndex) => {
    const { rowCount, minTimestamp, maxTimestamp } = partition.entry;
    if (rowCount === 0) return;
    let words: Int32Array;
    for (const interval of intervals) {
      if (interval.hi < minTimestamp || interval.lo > maxTimestamp) continue;
      if (interval.lo <= minTimestamp && interval.hi >= maxTimestamp) {
        ranges.push({ partitionIndex, lo: 0, hi: rowCount });
        continue;
      }
      // Parquet partitions narrow the search to the row groups whose statistics meet the interval, and decode
      // only those groups of the timestamp column; native partitions search all rows.
      const candidates = snapshot.timestampCandidateRows(partitionIndex, interval.lo, interval.hi);
      if (candidates.to <= candidates.from) continue;
      words = timestampWords(snapshot, partitionIndex, timestampColumn, rowCount, candidates.from, candidates.to);
      const lo = interval.lo <= minTimestamp ? 0 : firstRowAtOrAfter(words, candidates.from, candidates.to, interval.lo);
      const hi = interval.hi >= maxTimestamp ? rowCount : firstRowAtOrAfter(words, lo, candidates.to, interval.hi + 1);
      if (hi > lo) ranges.push({ partitionIndex, lo, hi });
    }
  });
  assertRangesOrdered(ranges);
  return ranges;
}

/** The designated timestamp column of a partition as int32 pairs (little-endian low word first). */
function timestampWords(snapshot: TableSnapshot, partitionIndex: number, columnIndex: number, rowCount: number, from: number, to: number): Int32Array {
  const view = snapshot.column(partitionIndex, columnIndex, from, to);
  assert(view.kind === 'fixed', 'the designated timestamp is a fixed-width column present in every partition');
  assert(view.bytes.byteOffset % 4 === 0, 'mapped column files are word aligned');
  return new Int32Array(view.bytes.buffer, view.bytes.byteOffset, rowCount * 2);
}

/** The int64 at `row` as a number (exact for |µs| < 2^53). */
export function int64At(words: Int32Array, row: number): number {
  return words[2 * row + 1] * 4294967296 + (words[2 * row] >>> 0);
}

/** First row in [from, to) whose timestamp is >= `micros`, or `to` (lower-bound binary search). */
export function firstRowAtOrAfter(words: Int32Array, from: number, to: number, micros: number): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (int64At(words, mid) < micros) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Total rows the ranges cover (a count(*) answered from the layout). */
export function rowRangeCount(ranges: readonly RowRange[]): number {
  let total = 0;
  for (const range of ranges) total += range.hi - range.lo;
  return total;
}

function assertRangesOrdered(ranges: readonly RowRange[]): void {
  for (let k = 1; k < ranges.length; k++) {
    const previous = ranges[k - 1];
    const current = ranges[k];
    const ordered = previous.partitionIndex < current.partitionIndex || (previous.partitionIndex === current.partitionIndex && previous.hi <= current.lo);
    assert(ordered, 'pruned row ranges follow table order without overlap');
  }
}
