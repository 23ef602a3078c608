// ns intervals → row ranges of a TIMESTAMP_NS table. Partition metadata holds the µs floors of the first and
// last rows, so a partition is skipped or taken whole on those (widened to whole µs); inside a partition the
// bounds are found by binary search on the exact int64 values of the mapped column.
import type { TableSnapshot } from '../../storage/table-reader.js';
import type { NanoInterval } from './intervals-ns.js';
import type { RowRange } from './partition-pruning.js';
import { assert } from '../../core/assert.js';

export function pruneToRowRangesNanos(snapshot: TableSnapshot, intervals: readonly NanoInterval[]): RowRange[] {
  const timestampColumn = snapshot.meta.timestampIndex;
  assert(timestampColumn >= 0, 'ns interval pruning is only planned for tables with a designated timestamp');
  const ranges: RowRange[] = [];
  snapshot.partitions.forEach((partition, partitionIndex) => {
    const { rowCount, minTimestamp, maxTimestamp } = partition.entry;
    if (rowCount === 0) return;
    const minNanos = BigInt(minTimestamp) * 1000n;
    const maxNanos = BigInt(maxTimestamp) * 1000n + 999n;
    let values: BigInt64Array | undefined;
    for (const interval of intervals) {
      if (interval.hi < minNanos || interval.lo > maxNanos) continue;
      values ??= timestampValues(snapshot, partitionIndex, timestampColumn, rowCount);
      const lo = firstRowAtOrAfterNanos(values, 0, rowCount, interval.lo);
      const hi = interval.hi >= maxNanos ? rowCount : firstRowAtOrAfterNanos(values, lo, rowCount, interval.hi + 1n);
      if (hi > lo) ranges.push({ partitionIndex, lo, hi });
    }
  });
  return ranges;
}

function timestampValues(snapshot: TableSnapshot, partitionIndex: number, columnIndex: number, rowCount: number): BigInt64Array {
  const view = snapshot.column(partitionIndex, columnIndex, 0, rowCount);
  assert(view.kind === 'fixed', 'the designated timestamp is a fixed-width column present in every partition');
  if (view.bytes.byteOffset % 8 === 0) return new BigInt64Array(view.bytes.buffer, view.bytes.byteOffset, rowCount);
  return new BigInt64Array(Uint8Array.from(view.bytes.subarray(0, rowCount * 8)).buffer, 0, rowCount);
}

/** First row in [from, to) whose timestamp is >= `nanos`, or `to`. */
function firstRowAtOrAfterNanos(values: BigInt64Array, from: number, to: number, nanos: bigint): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid] < nanos) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
