// Splits rows in storage form by the partition their designated timestamp falls in, for import staging:
// rows that no partition can hold (a null or pre-1970 timestamp) are dropped and counted, and rows out of
// order within the chunk are sorted (stably) first, so every part is in timestamp order. Pure; runs in
// parse threads as well as in the request's thread.
import type { PartitionUnit } from '../types/timestamp.js';
import type { ColumnData, RowChunk } from './row-chunk.js';
import { gatherChunk, sliceChunk } from './row-chunk.js';
import { DEFAULT_PARTITION, gatherKeys, isAscending, partitionSpanOf, stableSortPermutation, timestampKeysOf, timestampsOf } from './partition-layout.js';

/** How rows are split: the target table's partitioning and the index of its designated timestamp (-1: none). */
export interface StagingLayout {
  readonly partitionBy: PartitionUnit;
  readonly timestampIndex: number;
  /** The designated timestamp is TIMESTAMP_NS: rows sort by exact ns, partitions and min/max use µs floors. */
  readonly nanos?: boolean;
}

/** Rows of one partition, in timestamp order (min and max are 0 without a designated timestamp). */
export interface PartitionRows {
  readonly name: string;
  readonly rows: RowChunk;
  readonly minTimestamp: number;
  readonly maxTimestamp: number;
}

export interface PartitionedRows {
  readonly parts: readonly PartitionRows[];
  readonly droppedRows: number;
}

export const UNSPLIT_LAYOUT: StagingLayout = { partitionBy: 'NONE', timestampIndex: -1 };

export function splitByPartition(chunk: RowChunk, layout: StagingLayout): PartitionedRows {
  const tsIndex = layout.timestampIndex;
  if (chunk.rowCount === 0) return { parts: [], droppedRows: 0 };
  if (tsIndex < 0) return { parts: [{ name: DEFAULT_PARTITION, rows: chunk, minTimestamp: 0, maxTimestamp: 0 }], droppedRows: 0 };
  let rows = chunk;
  const nanos = layout.nanos === true;
  let timestamps = timestampsOf(chunk.columns[tsIndex], chunk.rowCount, nanos);
  let keys = nanos ? timestampKeysOf(chunk.columns[tsIndex], chunk.rowCount, true) : timestamps;
  const storable = storableRows(timestamps);
  const droppedRows = rows.rowCount - storable.length;
  if (droppedRows > 0) {
    rows = gatherChunk(rows, storable, 0, storable.length);
    timestamps = Float64Array.from(storable, (row) => timestamps[row]);
    keys = gatherKeys(keys, storable);
  }
  if (!isAscending(keys)) {
    const order = stableSortPermutation(keys);
    rows = gatherChunk(rows, order, 0, order.length);
    timestamps = Float64Array.from(order, (row) => timestamps[row]);
  }
  const parts: PartitionRows[] = [];
  let from = 0;
  while (from < rows.rowCount) {
    const span = partitionSpanOf(timestamps[from], layout.partitionBy);
    let to = from + 1;
    while (to < rows.rowCount && timestamps[to] < span.end) to++;
    parts.push({ name: span.name, rows: sliceChunk(rows, from, to), minTimestamp: timestamps[from], maxTimestamp: timestamps[to - 1] });
    from = to;
  }
  return { parts, droppedRows };
}

/** Rows whose designated timestamp a partition can hold (not null, not before 1970). */
export function storableRows(timestamps: Float64Array): Int32Array {
  const keep = new Int32Array(timestamps.length);
  let kept = 0;
  for (let row = 0; row < timestamps.length; row++) {
    if (timestamps[row] >= 0) keep[kept++] = row;
  }
  return kept === timestamps.length ? keep : keep.subarray(0, kept);
}
