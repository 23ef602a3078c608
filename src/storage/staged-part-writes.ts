// Where and how one part of an upload (rows of one partition) is written into a staging segment. Placing a
// part (in upload order, in the request's thread) reserves its rows and text bytes in the staged partition's
// column files; writing it can then happen anywhere, in any order, because every write goes to its own
// reserved range (no truncation, no read-back of file sizes). Parse threads write the parts they converted.
import { assert } from '../core/assert.js';
import type { FilesFacade } from '../core/files.js';
import type { ColumnMeta } from './table-meta.js';
import type { ColumnData, RowChunk } from './row-chunk.js';
import { columnFilePaths, int64Offsets } from './column-files.js';
import type { PartitionRows } from './partition-split.js';

/** What placing needs to know of a part: its partition, rows, timestamp range and text bytes per column. */
export interface PartSummary {
  readonly name: string;
  readonly rowCount: number;
  readonly minTimestamp: number;
  readonly maxTimestamp: number;
  /** Per column: bytes of its text records, 0 for fixed-width columns. */
  readonly textBytes: readonly number[];
}

/** Where a part goes: its staged partition directory, its first row, and per text column its first byte. */
export interface PartPlacement {
  readonly dir: string;
  readonly rowStart: number;
  readonly textStarts: readonly number[];
}

export function summarizePart(part: PartitionRows): PartSummary {
  return {
    name: part.name, rowCount: part.rows.rowCount, minTimestamp: part.minTimestamp, maxTimestamp: part.maxTimestamp,
    textBytes: part.rows.columns.map((column) => (column.kind === 'var' ? column.bytes.length : 0)),
  };
}

/** Writes a placed part's columns (metas: the staged column files) at their reserved positions. */
export function writePlacedPart(files: FilesFacade, metas: readonly ColumnMeta[], placement: PartPlacement, rows: RowChunk): void {
  assert(rows.columns.length === metas.length, 'a placed part has one column per staged column');
  metas.forEach((meta, k) => {
    const column = rows.columns[k];
    const paths = columnFilePaths(placement.dir, meta.fileStem);
    if (column.kind === 'fixed') {
      writeAt(files, paths.data, column.bytes, placement.rowStart * column.width);
      return;
    }
    const textStart = placement.textStarts[k];
    writeAt(files, paths.data, column.bytes, textStart);
    // Entry rowStart repeats the previous part's end entry with the same value, so parts may land in any order.
    writeAt(files, paths.index, int64Offsets(column.offsets, textStart), placement.rowStart * 8);
  });
}

function writeAt(files: FilesFacade, path: string, bytes: Uint8Array, position: number): void {
  if (bytes.length === 0) return;
  const fd = files.openWrite(path);
  try {
    files.write(fd, bytes, position);
  } finally {
    files.close(fd);
  }
}
