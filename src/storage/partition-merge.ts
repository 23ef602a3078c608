// Out-of-order merges of ordered rows into a committed partition, written as a new version of it: rows before
// the first new timestamp are copied file to file, the rest merged with the new rows. Requests of concurrent
// clients, each in time order but committed in another order, merge in a few long runs: those are copied or
// written as they are, and the committed rows never pass through memory. Other merges (many runs,
// deduplication, Parquet partitions) gather the rows in memory.
import type { FilesFacade } from '../core/files.js';
import type { ColumnMeta } from './table-meta.js';
import type { ColumnData, RowChunk } from './row-chunk.js';
import { concatChunks, gatherChunk, sliceChunk } from './row-chunk.js';
import { appendColumn, copyColumnPrefixes, copyColumnRows, readPartitionRows, type WriteSession } from './column-files.js';
import { mergePermutation, mergeRuns, timestampKeysOf, type TimestampKeys } from './partition-layout.js';
import { dedupRows } from './dedup.js';
import { o3MergeRunsMax } from '../core/limits.js';
import type { ScratchMemory } from '../core/scratch-memory.js';

/**
 * How ascending rows with keys `rowKeys` merge with rows [kept, rowCount) of a partition, as runs (see
 * mergeRuns); undefined when that takes more than o3MergeRunsMax runs. Reads only the designated timestamps,
 * into `memory` (nothing read outlives the call).
 */
export function partitionMergeRuns(
  files: FilesFacade, partitionDir: string, timestamp: ColumnMeta, kept: number, rowCount: number, rowKeys: TimestampKeys, memory: ScratchMemory,
): Int32Array | undefined {
  const tail = readPartitionRows(files, partitionDir, [timestamp], kept, rowCount, memory);
  return mergeRuns(timestampKeysOf(tail.columns[0], rowCount - kept, timestamp.type === 'TIMESTAMP_NS', memory), rowKeys, o3MergeRunsMax);
}

/**
 * Writes the merge of `rows` into a partition as a new version in `toDir`: rows [0, kept) copied, then each run
 * of `runs` (partitionMergeRuns) either copied from the partition's rows from `kept` on or written from `rows`.
 * Returns the rows written from `kept` on.
 */
export function writeMergeRuns(session: WriteSession, fromDir: string, toDir: string, columns: readonly ColumnMeta[], kept: number, rows: RowChunk, runs: Int32Array): number {
  copyColumnPrefixes(session, fromDir, toDir, columns, kept);
  let at = kept;
  for (let run = 0; run < runs.length; run += 3) {
    const start = runs[run + 1];
    const end = runs[run + 2];
    if (runs[run] === 0) {
      copyColumnRows(session, fromDir, toDir, columns, kept + start, kept + end, at);
    } else {
      const part = sliceChunk(rows, start, end);
      columns.forEach((column, k) => appendColumn(session, toDir, column, part.columns[k], at));
    }
    at += end - start;
  }
  return at - kept;
}

/**
 * The merge in memory: `tail` (the partition's rows from `kept` on) and `rows` ordered, deduplicated on
 * `dedupKeys` when there are any, and written after the copied rows [0, kept). Returns the rows written from
 * `kept` on.
 */
export function writeMergeInMemory(
  session: WriteSession, fromDir: string, toDir: string, columns: readonly ColumnMeta[], kept: number,
  tail: RowChunk, rows: RowChunk, keysOf: (chunk: RowChunk) => TimestampKeys, dedupKeys: readonly number[],
): number {
  const order = mergePermutation(keysOf(tail), keysOf(rows));
  let merged = gatherChunk(concatChunks(tail, rows), order, 0, order.length);
  if (dedupKeys.length > 0) merged = dedupRows(merged, keysOf(merged), dedupKeys);
  copyColumnPrefixes(session, fromDir, toDir, columns, kept);
  columns.forEach((column, k) => appendColumn(session, toDir, column, merged.columns[k], kept));
  return merged.rowCount;
}
