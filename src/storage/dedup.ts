// DEDUP UPSERT KEYS: among rows ordered by the designated timestamp (older rows before newer ones at equal
// timestamps), rows whose key columns hold the same bytes collapse into the newest one, in its place.
// Only runs of equal timestamps are examined, so a table without repeated timestamps costs one pass.
import type { ColumnData, RowChunk } from './row-chunk.js';
import { gatherChunk } from './row-chunk.js';
import type { TimestampKeys } from './partition-layout.js';

function keyOf(columns: readonly ColumnData[], row: number): string {
  let key = '';
  for (const column of columns) {
    const bytes = column.kind === 'fixed'
      ? column.bytes.subarray(row * column.width, (row + 1) * column.width)
      : column.bytes.subarray(column.offsets[row], column.offsets[row + 1]);
    key += `${bytes.toString('latin1')}\u0000${bytes.length}|`;
  }
  return key;
}

/** The rows that survive deduplication, or the chunk itself when none collapse. */
export function dedupRows(chunk: RowChunk, timestamps: TimestampKeys, keyColumns: readonly number[]): RowChunk {
  const keys = keyColumns.map((index) => chunk.columns[index]);
  const keep = new Uint8Array(chunk.rowCount).fill(1);
  let dropped = 0;
  let from = 0;
  while (from < chunk.rowCount) {
    let to = from + 1;
    while (to < chunk.rowCount && timestamps[to] === timestamps[from]) to++;
    if (to - from > 1) {
      const newest = new Map<string, number>();
      for (let row = from; row < to; row++) {
        const key = keyOf(keys, row);
        const previous = newest.get(key);
        if (previous !== undefined) {
          keep[previous] = 0;
          dropped++;
        }
        newest.set(key, row);
      }
    }
    from = to;
  }
  if (dropped === 0) return chunk;
  const indexes = new Int32Array(chunk.rowCount - dropped);
  let next = 0;
  for (let row = 0; row < chunk.rowCount; row++) if (keep[row] === 1) indexes[next++] = row;
  return gatherChunk(chunk, indexes, 0, indexes.length);
}
