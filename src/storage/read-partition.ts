// Reads every row of a committed partition into memory in storage form (SYMBOL columns as int32 keys), from
// native column files or from its Parquet file alike: what rewrites (O3 merge, UPDATE, conversions) start from.
import type { FilesFacade } from '../core/files.js';
import type { ColumnMeta } from './table-meta.js';
import type { PartitionEntry } from './txn-file.js';
import type { RowChunk } from './row-chunk.js';
import { nullColumnData, readPartitionChunk } from './column-files.js';
import { ParquetPartitionReader } from './parquet/parquet-partition-reader.js';

export function readPartitionEntry(files: FilesFacade, partitionDir: string, entry: PartitionEntry, columns: readonly ColumnMeta[]): RowChunk {
  if (entry.parquetBytes === undefined) return readPartitionChunk(files, partitionDir, columns, entry.rowCount);
  const reader = ParquetPartitionReader.local(partitionDir, entry.parquetBytes, entry.rowCount);
  return {
    rowCount: entry.rowCount,
    columns: columns.map((column) => (reader.leafOf(column.fileStem) < 0
      ? nullColumnData(column.type, entry.rowCount)
      : reader.readRows(column.fileStem, column.type, 0, entry.rowCount))),
  };
}
