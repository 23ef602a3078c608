// What the table writer needs to turn a partition into Parquet: a function from the rows of a partition (storage
// form, SYMBOL columns as keys) to the bytes of the file. The encoder itself lives in output/ (it is the /exp
// Parquet writer's), and reaches the writer through the engine options, so storage does not import output.
import type { ColumnMeta } from '../table-meta.js';
import type { RowChunk } from '../row-chunk.js';

export type ParquetPartitionEncoder = (columns: readonly ColumnMeta[], rows: RowChunk) => Buffer;
