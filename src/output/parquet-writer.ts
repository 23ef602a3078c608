// The /exp Parquet writer: column batches in, file bytes out, one row group at a time. It owns one row group
// of column buffers (memory ≈ rowGroupRows rows) and emits each group's bytes as soon as the group is full.
// Built on hyparquet-writer (thrift metadata, page headers, RLE, snappy, bloom filters); the page path is our
// own so that it reads typed arrays and can write format version 1 (see parquet-column-chunk.ts).
import { isArrayType } from '../types/double-array.js';
import { ByteWriter } from 'hyparquet-writer';
import { writeBlooms } from 'hyparquet-writer/src/bloom.js';
import { writeMetadata } from 'hyparquet-writer/src/metadata.js';
import type { ColumnChunk, KeyValue, ParquetType, RowGroup, SchemaElement } from 'hyparquet';
import { assert, assertNever } from '../core/assert.js';
import { storageWidthBytes, vectorKindOfType } from '../types/column-type.js';
import { decimalPrecision, decimalScale, isDecimalType } from '../types/decimal.js';
import { arrayTypeDimCount } from '../types/double-array.js';
import { arraySchemaElements, writeArrayColumnChunk } from './parquet-array-chunk.js';
import type { ValueType } from '../types/column-type.js';
import { assertBatch } from '../sql/exec/batch.js';
import type { ColumnBatch } from '../sql/exec/batch.js';
import { appendToColumnBuffer, createColumnBuffer, resetColumnBuffer } from './parquet-column-buffer.js';
import type { ColumnBuffer } from './parquet-column-buffer.js';
import { prepareChunk } from './parquet-chunk-values.js';
import { ParquetOutput, writeColumnChunk } from './parquet-column-chunk.js';
import type { ChunkSettings, FixedValueEncoding } from './parquet-column-chunk.js';
import { createPageCompressor } from './parquet-codecs.js';
import type { ExportColumn, ParquetExportOptions } from './parquet-params.js';
import { isGeohashType } from '../types/geohash.js';

const MAGIC = new Uint8Array([0x50, 0x41, 0x52, 0x31]); // "PAR1"
const CREATED_BY = 'svc (hyparquet-writer 0.17.0)';

/** Receives the file in order; each call hands over a buffer the writer will not touch again. */
export type ParquetEmit = (bytes: Uint8Array) => void;

/** What the export drivers (single file, partitioned, thread) call. */
export interface ParquetExportWriter {
  writeBatch(batch: ColumnBatch): void;
  finish(): void;
  readonly rowCount: number;
}

/**
 * Parquet schema element of a column: every column OPTIONAL, logical types per shared/reference/parquet.md.
 * Integer widths (BYTE, SHORT, IPV4) carry only the converted type (INT_8, INT_16, UINT_32), which readers map
 * to the same logical type: hyparquet-writer 0.17.0 serializes IntType.bitWidth as a thrift i32 where the
 * format says i8, and DuckDB rejects such a footer ("TProtocolException: Invalid data").
 */
export function parquetSchemaElement(name: string, type: ValueType): SchemaElement {
  const optional = { name, repetition_type: 'OPTIONAL' } as const;
  // GEOHASH, LONG256 and INTERVAL are written as their text (base32 or bits, 0x hex, the interval's text), so
  // any reader gets the values QuestDB prints.
  if (isGeohashType(type)) return { ...optional, type: 'BYTE_ARRAY', converted_type: 'UTF8', logical_type: { type: 'STRING' } };
  if (isArrayType(type)) return { ...optional, type: 'BYTE_ARRAY' };
  if (isDecimalType(type)) {
    const precision = decimalPrecision(type);
    const scale = decimalScale(type);
    return {
      ...optional, type: 'FIXED_LEN_BYTE_ARRAY', type_length: storageWidthBytes(type), converted_type: 'DECIMAL', precision, scale,
      logical_type: { type: 'DECIMAL', precision, scale },
    };
  }
  switch (type) {
    case 'BOOLEAN': return { ...optional, type: 'BOOLEAN' };
    case 'BYTE': return { ...optional, type: 'INT32', converted_type: 'INT_8' };
    case 'SHORT': return { ...optional, type: 'INT32', converted_type: 'INT_16' };
    case 'INT': return { ...optional, type: 'INT32' };
    case 'LONG': return { ...optional, type: 'INT64' };
    case 'FLOAT': return { ...optional, type: 'FLOAT' };
    case 'DOUBLE': return { ...optional, type: 'DOUBLE' };
    case 'DATE':
      return { ...optional, type: 'INT64', converted_type: 'TIMESTAMP_MILLIS', logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MILLIS' } };
    case 'TIMESTAMP':
      return { ...optional, type: 'INT64', converted_type: 'TIMESTAMP_MICROS', logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MICROS' } };
    // Not marked UTC-adjusted: readers (DuckDB) turn UTC-adjusted NANOS into µs TIMESTAMPTZ and drop the last
    // three digits, while a plain NANOS column reads back as TIMESTAMP_NS, exactly.
    case 'TIMESTAMP_NS':
      return { ...optional, type: 'INT64', logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: false, unit: 'NANOS' } };
    // A bare NULL column (`select null`) is written as a string column holding only nulls.
    case 'SYMBOL': case 'STRING': case 'VARCHAR': case 'CHAR': case 'NULL': case 'LONG256': case 'INTERVAL':
      return { ...optional, type: 'BYTE_ARRAY', converted_type: 'UTF8', logical_type: { type: 'STRING' } };
    case 'UUID': return { ...optional, type: 'FIXED_LEN_BYTE_ARRAY', type_length: 16, logical_type: { type: 'UUID' } };
    // The address as an unsigned 32-bit number, as QuestDB's own Parquet encoder writes IPv4.
    case 'IPV4': return { ...optional, type: 'INT32', converted_type: 'UINT_32' };
    case 'BINARY': return { ...optional, type: 'BYTE_ARRAY' };
    default: return assertNever(type, 'column type');
  }
}

export class ParquetFileWriter implements ParquetExportWriter {
  private readonly out = new ParquetOutput();
  private readonly buffers: ColumnBuffer[];
  private readonly schema: SchemaElement[];
  private readonly settings: ChunkSettings[];
  /** Per column: the dimensions of a nested array column, 0 for every other column. */
  private readonly arrayDims: number[];
  private readonly rowGroups: RowGroup[] = [];
  private readonly blooms: { chunk: ColumnChunk; bloomFilter?: Uint32Array }[] = [];
  /** Column-major layout: per column, its chunks' bytes and metadata (offsets relative to the column's start). */
  private readonly columnMajor: { parts: Uint8Array[]; bytes: number; chunks: ColumnChunk[] }[] | undefined;
  private groupRows = 0;
  private totalRows = 0;
  private finished = false;

  constructor(
    private readonly columns: readonly ExportColumn[],
    private readonly options: ParquetExportOptions,
    private readonly emit: ParquetEmit,
    /** File-level key-value metadata (Parquet partitions name their column file stems there). */
    private readonly keyValues?: readonly KeyValue[],
  ) {
    assert(columns.length > 0, 'a query result has at least one column');
    const elements = columns.map((column) => parquetSchemaElement(column.name, column.type));
    // Nested array columns (not raw_array_encoding) take several schema elements: the LIST groups and the leaf.
    this.arrayDims = columns.map((column) => (isArrayType(column.type) && !options.rawArrayEncoding ? arrayTypeDimCount(column.type) : 0));
    const schemaOf = (column: ExportColumn, index: number): SchemaElement[] => {
      const dims = this.arrayDims[index] ?? 0;
      return dims > 0 ? arraySchemaElements(column.name, dims) : [elements[index]];
    };
    this.schema = [{ name: 'schema', num_children: columns.length }, ...columns.flatMap(schemaOf)];
    this.buffers = columns.map((column) => createColumnBuffer(column.type, options.rowGroupRows));
    const compressor = createPageCompressor(options.codec, options.compressionLevel);
    const bloomNames = new Set(options.bloomFilterColumns);
    this.settings = columns.map((column, index) => ({
      name: column.name,
      physicalType: physicalTypeOf(elements[index]),
      codec: options.codec,
      compressor,
      parquetVersion: options.parquetVersion,
      dataPageBytes: options.dataPageBytes,
      fixedEncoding: fixedEncodingOf(column.type, options.parquetVersion),
      statistics: options.statisticsEnabled,
      bloomFpp: bloomNames.has(column.name) ? options.bloomFilterFpp : undefined,
    }));
    this.columnMajor = options.chunkLayout === 'column-major' ? columns.map(() => ({ parts: [], bytes: 0, chunks: [] })) : undefined;
    this.out.push(MAGIC);
  }

  get rowCount(): number {
    return this.totalRows;
  }

  writeBatch(batch: ColumnBatch): void {
    this.writeRows(batch, 0, batch.rowCount);
  }

  /** Appends rows [from, to) of a batch; emits every row group that fills up on the way. */
  writeRows(batch: ColumnBatch, from: number, to: number): void {
    assert(!this.finished, 'no rows are written after finish()');
    assertBatch(batch, this.columns.length, 'parquet writer input');
    assert(from >= 0 && from <= to && to <= batch.rowCount, 'row range lies inside the batch');
    for (let c = 0; c < this.columns.length; c++) {
      const column = this.columns[c];
      assert(vectorKindOfType(batch.vectors[c].type) === vectorKindOfType(column.type), `vector layout of column ${column.name} matches its type`);
    }
    const groupRowsMax = this.options.rowGroupRows;
    while (from < to) {
      const count = Math.min(to - from, groupRowsMax - this.groupRows);
      for (let c = 0; c < this.buffers.length; c++) {
        appendToColumnBuffer(this.buffers[c], batch.vectors[c], from, from + count, this.groupRows);
      }
      this.groupRows += count;
      this.totalRows += count;
      from += count;
      if (this.groupRows === groupRowsMax) this.flushRowGroup();
    }
  }

  /** Writes the last partial row group, bloom filters and the footer; emits the rest of the file. */
  finish(): void {
    assert(!this.finished, 'finish() is called once');
    this.finished = true;
    if (this.groupRows > 0) this.flushRowGroup();
    if (this.columnMajor !== undefined) this.placeColumns(this.columnMajor);
    const tail = new ByteWriter();
    // Bloom filter offsets are absolute, so the tail writer counts from where the file stands.
    tail.offset = this.out.offset;
    writeBlooms(tail, this.blooms);
    writeMetadata(tail, {
      version: this.options.parquetVersion,
      schema: this.schema,
      num_rows: BigInt(this.totalRows),
      row_groups: this.rowGroups,
      created_by: CREATED_BY,
      ...(this.keyValues === undefined ? {} : { key_value_metadata: [...this.keyValues] }),
      metadata_length: 0, // not serialized: writeMetadata appends the real length after the footer
    });
    this.out.push(tail.getBytes());
    this.out.push(MAGIC);
    this.emit(this.out.take());
  }

  private flushRowGroup(): void {
    const rows = this.groupRows;
    const groupStart = this.out.offset;
    const chunks: ColumnChunk[] = [];
    let uncompressedBytes = 0n;
    for (let c = 0; c < this.buffers.length; c++) {
      const buffer = this.buffers[c];
      const dims = this.arrayDims[c] ?? 0;
      const column = this.columnMajor?.[c];
      // Column-major: the chunk goes to its column's own output, at offsets counted from the column's start.
      const out = column === undefined ? this.out : new ParquetOutput();
      if (column !== undefined) out.offset = column.bytes;
      const written = dims > 0 && buffer.kind === 'bytes'
        ? writeArrayColumnChunk(out, buffer.values.map((value) => (value instanceof Uint8Array ? value : null)), rows, dims, this.settings[c])
        : writeColumnChunk(out, prepareChunk(buffer, rows), this.settings[c]);
      if (column !== undefined) {
        // take() copies the bytes out of the row group's buffers, which are refilled for the next group.
        const bytes = out.take();
        column.parts.push(bytes);
        column.bytes += bytes.length;
        column.chunks.push(written.chunk);
      }
      chunks.push(written.chunk);
      uncompressedBytes += written.chunk.meta_data?.total_uncompressed_size ?? 0n;
      if (written.bloomFilter !== undefined) this.blooms.push({ chunk: written.chunk, bloomFilter: written.bloomFilter });
    }
    this.rowGroups.push({
      columns: chunks,
      num_rows: BigInt(rows),
      total_byte_size: uncompressedBytes,
      file_offset: BigInt(groupStart),
      total_compressed_size: this.columnMajor === undefined ? BigInt(this.out.offset - groupStart) : chunks.reduce((sum, chunk) => sum + (chunk.meta_data?.total_compressed_size ?? 0n), 0n),
    });
    // take() copies the group's bytes out, so the buffers can be refilled afterwards.
    if (this.columnMajor === undefined) this.emit(this.out.take());
    for (const buffer of this.buffers) resetColumnBuffer(buffer);
    this.groupRows = 0;
  }

  /**
   * Column-major: emits each column's chunks in a row (handing over the buffers, so the file is not held twice)
   * and moves their offsets to where the column landed.
   */
  private placeColumns(columns: readonly { parts: Uint8Array[]; chunks: ColumnChunk[] }[]): void {
    this.emit(this.out.take());
    for (const column of columns) {
      const base = BigInt(this.out.offset);
      for (const chunk of column.chunks) {
        chunk.file_offset += base;
        const meta = chunk.meta_data;
        assert(meta !== undefined, 'written column chunks carry their metadata');
        meta.data_page_offset += base;
        if (meta.dictionary_page_offset !== undefined) meta.dictionary_page_offset += base;
      }
      for (const part of column.parts) {
        this.emit(part);
        this.out.advance(part.length);
      }
      column.parts = [];
    }
    // A row group's file_offset is where its first chunk begins (the first column's chunk, now placed).
    for (const group of this.rowGroups) group.file_offset = group.columns[0]?.file_offset ?? group.file_offset;
  }
}

/**
 * Format version 1 keeps to PLAIN (plus dictionaries), what parquet-mr's v1 writer emits and every reader knows.
 * Version 2 uses the encodings DuckDB's v2 writer picks: delta-packed integers and byte-split floats.
 */
function fixedEncodingOf(type: ValueType, version: 1 | 2): FixedValueEncoding {
  if (version === 1) return 'PLAIN';
  switch (type) {
    case 'DOUBLE': case 'FLOAT': return 'BYTE_STREAM_SPLIT';
    case 'LONG': case 'DATE': case 'TIMESTAMP': case 'INT': case 'SHORT': case 'BYTE': case 'IPV4': return 'DELTA_BINARY_PACKED';
    default: return 'PLAIN';
  }
}

function physicalTypeOf(element: SchemaElement): ParquetType {
  assert(element.type !== undefined, 'leaf schema elements have a physical type');
  return element.type;
}
