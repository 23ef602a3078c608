// Writes one column chunk: an optional dictionary page, then data pages cut at about dataPageBytes, as
// DATA_PAGE (format version 1: levels and values compressed together) or DATA_PAGE_V2 (levels left
// uncompressed before the values), and returns its ColumnChunk metadata and bloom filter.
// Thrift headers and the RLE/bit-packed hybrid come from hyparquet-writer; the page framing is ours because
// hyparquet-writer only writes v2 pages and only from arrays of JS values.
import { ByteWriter } from 'hyparquet-writer';
import { writePageHeader } from 'hyparquet-writer/src/datapage.js';
import { writeRleBitPackedHybrid } from 'hyparquet-writer/src/encoding.js';
import type { ColumnChunk, CompressionCodec, Encoding, PageHeader, ParquetType } from 'hyparquet';
import { assert } from '../core/assert.js';
import type { ChunkValues, PreparedChunk } from './parquet-chunk-values.js';
import type { PageCompressor } from './parquet-codecs.js';
import { buildBloomFilter } from './parquet-bloom.js';
import { byteStreamSplit, deltaBinaryPack } from './parquet-encodings.js';

/** How fixed-width values are encoded in data pages; the other layouts have one encoding each. */
export type FixedValueEncoding = 'PLAIN' | 'DELTA_BINARY_PACKED' | 'BYTE_STREAM_SPLIT';

/**
 * Appends file bytes in order and keeps the absolute file offset chunk metadata points at. Pushed arrays may be
 * views of the row group's buffers: they must stay unchanged until take(), which the file writer calls before
 * it refills those buffers.
 */
export class ParquetOutput {
  private parts: Uint8Array[] = [];
  offset = 0;

  push(bytes: Uint8Array): void {
    this.parts.push(bytes);
    this.offset += bytes.length;
  }

  /** Counts bytes the writer emitted itself (after a take()), so later offsets stay absolute. */
  advance(length: number): void {
    assert(this.parts.length === 0, 'bytes emitted directly follow everything taken before them');
    this.offset += length;
  }

  /**
   * Everything pushed since the last take, as one buffer (one postMessage, one socket write). It is always a
   * fresh ArrayBuffer of its own, never Node's shared Buffer pool, so the thread can transfer it.
   */
  take(): Uint8Array {
    let size = 0;
    for (const part of this.parts) size += part.length;
    const joined = new Uint8Array(size);
    let at = 0;
    for (const part of this.parts) {
      joined.set(part, at);
      at += part.length;
    }
    this.parts = [];
    return joined;
  }
}

export interface ChunkSettings {
  readonly name: string;
  readonly physicalType: ParquetType;
  readonly codec: CompressionCodec;
  readonly compressor: PageCompressor | undefined;
  readonly parquetVersion: 1 | 2;
  readonly dataPageBytes: number;
  readonly fixedEncoding: FixedValueEncoding;
  readonly statistics: boolean;
  /** False-positive probability of the column's bloom filter; undefined when it has none. */
  readonly bloomFpp: number | undefined;
}

export interface WrittenChunk {
  readonly chunk: ColumnChunk;
  readonly bloomFilter: Uint32Array | undefined;
}

/** Scratch writer for headers and levels; its bytes are copied out before it is reused. */
const scratch = new ByteWriter(1 << 16);

function scratchBytes(fill: (writer: ByteWriter) => void): Uint8Array {
  scratch.index = 0;
  scratch.offset = 0;
  fill(scratch);
  return scratch.getBytes().slice();
}

export function writeColumnChunk(out: ParquetOutput, prepared: PreparedChunk, settings: ChunkSettings): WrittenChunk {
  assert(prepared.rows > 0, 'row groups are written only when they hold rows');
  const chunkStart = out.offset;
  let uncompressedBytes = 0;
  const values = prepared.values;
  let dictionaryPageOffset: bigint | undefined;
  let dataEncoding: Encoding = 'PLAIN';
  if (values.layout === 'dictionary') {
    dictionaryPageOffset = BigInt(out.offset);
    // Format version 1 readers expect PLAIN_DICTIONARY on both pages, as parquet-mr's v1 writer emits.
    const dictionaryEncoding: Encoding = settings.parquetVersion === 1 ? 'PLAIN_DICTIONARY' : 'PLAIN';
    dataEncoding = settings.parquetVersion === 1 ? 'PLAIN_DICTIONARY' : 'RLE_DICTIONARY';
    const count = values.dictionary.offsets.length - 1;
    uncompressedBytes += writePage(out, settings, values.dictionary.bytes, (body) => ({
      type: 'DICTIONARY_PAGE', uncompressed_page_size: values.dictionary.bytes.length, compressed_page_size: body.length,
      dictionary_page_header: { num_values: count, encoding: dictionaryEncoding },
    }));
  }
  if (values.layout === 'fixed') dataEncoding = settings.fixedEncoding;
  const dataPageOffset = BigInt(out.offset);
  const pages = writeDataPages(out, prepared, settings, dataEncoding);
  assert(pages.count > 0, 'a chunk with rows has at least one data page');
  uncompressedBytes += pages.uncompressedBytes;
  // A v2 dictionary page is PLAIN (v1's PLAIN_DICTIONARY is listed with the data pages); levels are RLE.
  const encodings = new Set<Encoding>(dictionaryPageOffset !== undefined && settings.parquetVersion === 2 ? ['PLAIN', 'RLE'] : ['RLE']);
  for (const encoding of pages.encodings) encodings.add(encoding);
  const chunk: ColumnChunk = {
    file_offset: BigInt(chunkStart),
    meta_data: {
      type: settings.physicalType,
      encodings: [...encodings],
      path_in_schema: [settings.name],
      codec: settings.codec,
      num_values: BigInt(prepared.rows),
      total_uncompressed_size: BigInt(uncompressedBytes),
      total_compressed_size: BigInt(out.offset - chunkStart),
      data_page_offset: dataPageOffset,
      dictionary_page_offset: dictionaryPageOffset,
      statistics: settings.statistics
        ? { null_count: BigInt(prepared.nullCount), min_value: prepared.min, max_value: prepared.max }
        : undefined,
    },
  };
  const bloomFilter = settings.bloomFpp === undefined ? undefined : buildBloomFilter(prepared.values, settings.bloomFpp);
  return { chunk, bloomFilter };
}

/** Cuts the chunk into pages of about dataPageBytes, always at row boundaries and at least one row each. */
function writeDataPages(out: ParquetOutput, prepared: PreparedChunk, settings: ChunkSettings, encoding: Encoding): { count: number; uncompressedBytes: number; encodings: Set<Encoding> } {
  const { rows, defined, values } = prepared;
  const rowsPerPage = fixedRowsPerPage(values, settings.dataPageBytes);
  const result = { count: 0, uncompressedBytes: 0, encodings: new Set<Encoding>() };
  for (let rowStart = 0, valueStart = 0; rowStart < rows; result.count++) {
    let rowEnd: number;
    let valueEnd: number;
    if (values.layout === 'variable') {
      let bytes = 0;
      rowEnd = rowStart;
      valueEnd = valueStart;
      while (rowEnd < rows && (bytes < settings.dataPageBytes || rowEnd === rowStart)) {
        if (defined === undefined || defined[rowEnd] === 1) bytes += values.offsets[valueEnd + 1] - values.offsets[valueEnd++];
        rowEnd++;
      }
    } else {
      rowEnd = Math.min(rows, rowStart + rowsPerPage);
      valueEnd = valueStart + countDefined(defined, rowStart, rowEnd);
    }
    const levels = encodeDefinitionLevels(defined, rowStart, rowEnd);
    const page = encodePageValues(values, valueStart, valueEnd, encoding);
    result.encodings.add(page.encoding);
    result.uncompressedBytes += writeDataPage(out, settings, page.encoding, levels, page.bytes, rowEnd - rowStart, rowEnd - rowStart - (valueEnd - valueStart));
    rowStart = rowEnd;
    valueStart = valueEnd;
  }
  return result;
}

function fixedRowsPerPage(values: ChunkValues, pageBytes: number): number {
  switch (values.layout) {
    case 'fixed': return Math.max(1, Math.floor(pageBytes / values.width));
    case 'bits': return Math.max(8, pageBytes * 8);
    case 'dictionary': return Math.max(1, Math.floor((pageBytes * 8) / values.bitWidth));
    case 'variable': return 1; // cut by bytes in writeDataPages
  }
}

function countDefined(defined: Uint8Array | undefined, from: number, to: number): number {
  if (defined === undefined) return to - from;
  let count = 0;
  for (let i = from; i < to; i++) count += defined[i];
  return count;
}

/** Bit width 1 RLE/bit-packed hybrid; a page without nulls is one run of 1s. */
function encodeDefinitionLevels(defined: Uint8Array | undefined, from: number, to: number): Uint8Array {
  return scratchBytes((writer) => {
    if (defined === undefined) {
      writer.appendVarInt((to - from) * 2);
      writer.appendUint8(1);
    } else {
      writeRleBitPackedHybrid(writer, defined.subarray(from, to), 1);
    }
  });
}

function encodePageValues(values: ChunkValues, from: number, to: number, encoding: Encoding): { bytes: Uint8Array; encoding: Encoding } {
  switch (values.layout) {
    case 'fixed': return encodeFixedValues(values.bytes.subarray(from * values.width, to * values.width), values.width, encoding);
    case 'variable': return { bytes: values.bytes.subarray(values.offsets[from], values.offsets[to]), encoding };
    case 'bits': return { bytes: packBits(values.values, from, to), encoding };
    case 'dictionary': {
      const bytes = scratchBytes((writer) => {
        writer.appendUint8(values.bitWidth);
        writeRleBitPackedHybrid(writer, values.indices.subarray(from, to), values.bitWidth);
      });
      return { bytes, encoding };
    }
  }
}

/** A page whose deltas are too wide for DELTA_BINARY_PACKED falls back to PLAIN; encodings may differ per page. */
function encodeFixedValues(plain: Uint8Array, width: number, encoding: Encoding): { bytes: Uint8Array; encoding: Encoding } {
  if (encoding === 'BYTE_STREAM_SPLIT') return { bytes: byteStreamSplit(plain, width), encoding };
  if (encoding === 'DELTA_BINARY_PACKED' && (width === 4 || width === 8)) {
    const packed = deltaBinaryPack(plain, width);
    if (packed !== undefined) return { bytes: packed, encoding };
  }
  return { bytes: plain, encoding: 'PLAIN' };
}

/** PLAIN BOOLEAN: one bit per value, least significant bit first. */
function packBits(values: Uint8Array, from: number, to: number): Uint8Array {
  const packed = new Uint8Array(Math.ceil((to - from) / 8));
  for (let i = from; i < to; i++) packed[(i - from) >> 3] |= values[i] << ((i - from) & 7);
  return packed;
}

/** Writes one data page; returns its uncompressed size including the header. */
function writeDataPage(out: ParquetOutput, settings: ChunkSettings, encoding: Encoding, levels: Uint8Array, values: Uint8Array, rows: number, nulls: number): number {
  if (settings.parquetVersion === 2) {
    return writePage(out, settings, values, (body) => ({
      type: 'DATA_PAGE_V2', uncompressed_page_size: levels.length + values.length, compressed_page_size: levels.length + body.length,
      data_page_header_v2: {
        num_values: rows, num_nulls: nulls, num_rows: rows, encoding,
        definition_levels_byte_length: levels.length, repetition_levels_byte_length: 0,
        is_compressed: settings.compressor !== undefined,
      },
    }), levels);
  }
  // Version 1: [int32 length][definition levels][values], compressed as one body; no repetition levels (flat schema).
  const page = new Uint8Array(4 + levels.length + values.length);
  new DataView(page.buffer).setInt32(0, levels.length, true);
  page.set(levels, 4);
  page.set(values, 4 + levels.length);
  return writePage(out, settings, page, (body) => ({
    type: 'DATA_PAGE', uncompressed_page_size: page.length, compressed_page_size: body.length,
    data_page_header: { num_values: rows, encoding, definition_level_encoding: 'RLE', repetition_level_encoding: 'RLE' },
  }));
}

/** Compresses `payload`, then writes header, `prefix` (v2 levels, never compressed) and the body. */
function writePage(out: ParquetOutput, settings: ChunkSettings, payload: Uint8Array, header: (body: Uint8Array) => PageHeader, prefix?: Uint8Array): number {
  const body = settings.compressor === undefined ? payload : settings.compressor(payload);
  const pageHeader = header(body);
  const headerBytes = scratchBytes((writer) => writePageHeader(writer, pageHeader));
  out.push(headerBytes);
  if (prefix !== undefined) out.push(prefix);
  out.push(body);
  return headerBytes.length + pageHeader.uncompressed_page_size;
}
