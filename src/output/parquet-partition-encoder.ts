// Write side of a Parquet partition: the rows of a partition in storage form become one Parquet file, written
// by the /exp Parquet writer (src/output) in row groups of a bounded size, with min/max statistics on every
// column so readers can skip row groups. SYMBOL columns are stored as their int32 keys (the table dictionary
// stays the source of the texts, so keys never change); the file stems of the columns go into the key-value
// metadata, which is how the reader finds a column after renames and later ADD/DROP COLUMN.
import { isArrayType } from '../types/double-array.js';
import type { KeyValue } from 'hyparquet';
import type { ColumnType } from '../types/column-type.js';
import type { ColumnBatch, Vector } from '../sql/exec/batch.js';
import { ParquetFileWriter } from './parquet-writer.js';
import type { ExportColumn, ParquetExportOptions, ParquetWrittenCodec } from './parquet-params.js';
import { PARQUET_EXPORT_DEFAULTS } from './parquet-params.js';
import { int64WordsToNumbers } from '../types/int64-words.js';
import { assert } from '../core/assert.js';
import { batchRowsMax } from '../core/limits.js';
import type { ColumnMeta } from '../storage/table-meta.js';
import type { ColumnData, RowChunk } from '../storage/row-chunk.js';
import { varColumnValues } from '../storage/row-chunk.js';
import { PARQUET_STEMS_KEY } from '../storage/parquet/parquet-partition-reader.js';
import type { ParquetPartitionEncoder } from '../storage/parquet/parquet-partition-encoder-contract.js';
import { isTextCodedType, readTextCoded } from '../types/coded-columns.js';

export interface PartitionEncoding {
  readonly rowGroupRows: number;
  readonly codec: ParquetWrittenCodec;
  readonly compressionLevel: number;
}

/** The encoder the engine calls for CONVERT PARTITION TO PARQUET, with the configured settings. */
export function parquetPartitionEncoder(encoding: PartitionEncoding): ParquetPartitionEncoder {
  return (columns, rows) => encodeParquetPartition(columns, rows, encoding);
}

const WRITTEN_CODECS: readonly ParquetWrittenCodec[] = ['UNCOMPRESSED', 'SNAPPY', 'GZIP', 'BROTLI', 'ZSTD', 'LZ4_RAW'];
/** The level a codec gets for level 0 (the config default): ZSTD 9 as QuestDB, GZIP 6, BROTLI 11. */
const DEFAULT_LEVELS: Readonly<Record<string, number>> = { ZSTD: 9, GZIP: 6, BROTLI: 11 };

/** Encoding from the cairo.partition.encoder.parquet.* settings (already validated by the config layer). */
export function partitionEncodingOf(rowGroupRows: number, codecName: string, level: number): PartitionEncoding {
  const codec = WRITTEN_CODECS.find((name) => name === codecName);
  assert(codec !== undefined, 'the config layer accepts only written codecs');
  const bounded = codec === 'GZIP' ? Math.min(level, 9) : codec === 'BROTLI' ? Math.min(level, 11) : level;
  return { rowGroupRows, codec, compressionLevel: bounded === 0 ? (DEFAULT_LEVELS[codec] ?? 0) : bounded };
}

/** The Parquet file of a partition's rows; SYMBOL columns hold int32 keys. */
export function encodeParquetPartition(columns: readonly ColumnMeta[], rows: RowChunk, encoding: PartitionEncoding): Buffer {
  assert(columns.length === rows.columns.length && rows.rowCount > 0, 'a partition encodes one column per table column and at least one row');
  const exportColumns: ExportColumn[] = columns.map((column) => ({ name: column.name, type: column.type === 'SYMBOL' ? 'INT' : column.type }));
  const options: ParquetExportOptions = {
    ...PARQUET_EXPORT_DEFAULTS,
    codec: encoding.codec,
    compressionLevel: encoding.compressionLevel,
    rowGroupRows: encoding.rowGroupRows,
    // Version 1 pages with PLAIN values: the fastest layout to decode (a page of int64s is the storage bytes).
    parquetVersion: 1,
    statisticsEnabled: true,
    // Arrays keep their binary value (BYTE_ARRAY), which the partition reader hands back to storage unchanged.
    rawArrayEncoding: true,
    // One contiguous byte range per column: a cold partition's column is one range request, not one per row
    // group (the whole file is built in memory here anyway).
    chunkLayout: 'column-major',
  };
  const pieces: Uint8Array[] = [];
  const keyValues: KeyValue[] = [{ key: PARQUET_STEMS_KEY, value: JSON.stringify(columns.map((column) => column.fileStem)) }];
  const writer = new ParquetFileWriter(exportColumns, options, (bytes) => pieces.push(bytes), keyValues);
  for (let start = 0; start < rows.rowCount; start += batchRowsMax) {
    const count = Math.min(batchRowsMax, rows.rowCount - start);
    const batch: ColumnBatch = { rowCount: count, vectors: columns.map((column, k) => storageVector(exportColumns[k]?.type ?? column.type, rows.columns[k], start, count)) };
    writer.writeBatch(batch);
  }
  writer.finish();
  return Buffer.concat(pieces);
}

/** Typed arrays need aligned offsets; buffers from the allocator pool may not be. */
function aligned(bytes: Buffer, alignment: number): Buffer {
  return bytes.byteOffset % alignment === 0 ? bytes : Buffer.from(bytes);
}

function storageVector(type: ExportColumn['type'], data: ColumnData, start: number, count: number): Vector {
  if (data.kind === 'var') return varVector(type, data, start, count);
  const bytes = aligned(data.bytes, 8);
  const base = bytes.byteOffset;
  if (isTextCodedType(type)) return { type, data: readTextCoded(type, bytes, start, count) };
  switch (type as ColumnType) {
    case 'DOUBLE': return { type, data: new Float64Array(bytes.buffer, base + start * 8, count) };
    case 'FLOAT': return { type, data: new Float32Array(bytes.buffer, base + start * 4, count) };
    case 'INT': case 'IPV4': return { type, data: new Int32Array(bytes.buffer, base + start * 4, count) };
    case 'SHORT': return { type, data: new Int16Array(bytes.buffer, base + start * 2, count) };
    case 'CHAR': return { type, data: new Uint16Array(bytes.buffer, base + start * 2, count) };
    case 'BYTE': case 'BOOLEAN': return { type, data: new Int8Array(bytes.buffer, base + start, count) };
    case 'LONG': case 'DATE': case 'TIMESTAMP': case 'TIMESTAMP_NS': {
      const exact = new BigInt64Array(bytes.buffer, base + start * 8, count);
      return { type, exact, data: int64WordsToNumbers(new Int32Array(bytes.buffer, base + start * 8, count * 2), count) };
    }
    default:
      assert(false, `every fixed-width storage type has a vector layout (${type})`);
      return { type, data: [] };
  }
}

function varVector(type: ExportColumn['type'], data: Extract<ColumnData, { kind: 'var' }>, start: number, count: number): Vector {
  const binary = type === 'BINARY' || isArrayType(type);
  const values = varColumnValues(data, start, count, binary);
  return binary ? { type, data: values as (Uint8Array | null)[] } : { type, data: values as (string | null)[] };
}
