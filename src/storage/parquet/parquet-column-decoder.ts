// Decodes one column chunk (one column of one row group) of a Parquet file into svc storage form: fixed-width
// little-endian values with the storage null sentinels, or [int32 length][bytes] records. Page headers, levels,
// decompression and value encodings (PLAIN, dictionary, delta, byte-stream-split) are hyparquet's; placing the
// values (dictionary lookup, nulls, unit scaling, width changes) is ours, in loops over typed arrays, because
// hyparquet's own assembly boxes every value into a JS array (and timestamps into Date objects).
import type { ColumnMetaData, DecodedArray, PageHeader, SchemaElement, SchemaTree } from 'hyparquet';
import { parquetHeader } from 'hyparquet/src/column.js';
import { decompressPage, readDataPage, readDataPageV2 } from 'hyparquet/src/datapage.js';
import { readPlain } from 'hyparquet/src/plain.js';
import { DEFAULT_PARSERS } from 'hyparquet/src/convert.js';
import { readRleBitPackedHybrid } from 'hyparquet/src/encoding.js';
import type { ColumnType } from '../../types/column-type.js';
import { storageWidthBytes, isVariableSize } from '../../types/column-type.js';
import type { ColumnData } from '../row-chunk.js';
import { nullColumnData } from '../column-files.js';
import { assert } from '../../core/assert.js';
import { StorageError } from '../../core/errors.js';
import { PARQUET_DECOMPRESSORS } from './parquet-decompress.js';
import { createFixedSink, createVarSink, type ValueSink } from './parquet-value-sink.js';

/** What decoding a chunk needs to know about its column. */
export interface ChunkColumn {
  readonly meta: ColumnMetaData;
  readonly element: SchemaElement;
  readonly schemaPath: SchemaTree[];
  /** The svc type the values become. */
  readonly type: ColumnType;
}

/** Decodes `rowCount` rows of a column chunk whose bytes (dictionary page first, if any) are `bytes`. */
export function decodeColumnChunk(bytes: Uint8Array, column: ChunkColumn, rowCount: number): ColumnData {
  if (rowCount === 0) return nullColumnData(column.type, 0);
  const sink = isVariableSize(column.type) ? createVarSink(column, rowCount) : createFixedSink(column, rowCount, storageWidthBytes(column.type));
  const decoder = {
    pathInSchema: column.meta.path_in_schema,
    type: column.meta.type,
    element: column.element,
    schemaPath: column.schemaPath,
    codec: column.meta.codec,
    compressors: PARQUET_DECOMPRESSORS,
    parsers: DEFAULT_PARSERS,
  };
  const reader = { view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), offset: 0 };
  let dictionary: DecodedArray | undefined;
  let row = 0;
  try {
    while (row < rowCount) {
      if (reader.offset >= bytes.byteLength) throw new StorageError(`parquet column chunk ends early [column=${column.element.name}, rows=${row} of ${rowCount}]`);
      const header: PageHeader = parquetHeader(reader);
      const pageBytes = bytes.subarray(reader.offset, reader.offset + header.compressed_page_size);
      reader.offset += header.compressed_page_size;
      if (header.type === 'DICTIONARY_PAGE') {
        const page = decompressPage(pageBytes, header.uncompressed_page_size, decoder.codec, decoder.compressors);
        const count = header.dictionary_page_header?.num_values ?? 0;
        dictionary = readPlain({ view: new DataView(page.buffer, page.byteOffset, page.byteLength), offset: 0 }, decoder.type, count, column.element.type_length);
        continue;
      }
      let page: { definitionLevels: readonly number[] | undefined; dataPage: DecodedArray; encoding: string };
      if (header.type === 'DATA_PAGE') {
        const daph = header.data_page_header;
        assert(daph !== undefined, 'a DATA_PAGE has its header');
        const raw = decompressPage(pageBytes, header.uncompressed_page_size, decoder.codec, decoder.compressors);
        const copied = placePlainPage(sink, row, rowCount, raw, daph.num_values, daph.encoding, column);
        if (copied > 0) {
          row += copied;
          continue;
        }
        const decoded = readDataPage(raw, daph, decoder);
        page = { definitionLevels: decoded.definitionLevels, dataPage: decoded.dataPage, encoding: daph.encoding };
      } else if (header.type === 'DATA_PAGE_V2') {
        const daph = header.data_page_header_v2;
        assert(daph !== undefined, 'a DATA_PAGE_V2 has its header');
        const decoded = readDataPageV2(pageBytes, header, decoder);
        page = { definitionLevels: decoded.definitionLevels, dataPage: decoded.dataPage, encoding: daph.encoding };
      } else {
        continue; // index pages carry nothing to decode
      }
      const dictionaryEncoded = page.encoding === 'PLAIN_DICTIONARY' || page.encoding === 'RLE_DICTIONARY';
      if (dictionaryEncoded && dictionary === undefined) throw new StorageError(`parquet dictionary page missing [column=${column.element.name}]`);
      const pageRows = page.definitionLevels !== undefined && page.definitionLevels.length > 0 ? page.definitionLevels.length : page.dataPage.length;
      if (row + pageRows > rowCount) throw new StorageError(`parquet page holds more rows than its row group [column=${column.element.name}]`);
      placePage(sink, row, pageRows, page.definitionLevels, page.dataPage, dictionaryEncoded ? dictionary : undefined);
      row += pageRows;
    }
  } catch (error) {
    if (error instanceof StorageError) throw error;
    throw new StorageError(`could not decode parquet column [column=${column.element.name}, error=${(error as Error).message}]`);
  }
  return sink.finish();
}

const PHYSICAL_WIDTH_BYTES: Readonly<Record<string, number>> = { INT32: 4, INT64: 8, FLOAT: 4, DOUBLE: 8 };

/**
 * The hot path for the pages svc itself writes (v1, PLAIN, flat): definition levels decoded into a byte array
 * and values copied as bytes, skipping hyparquet's per-value arrays. Returns the rows placed, 0 when the page
 * needs the general path.
 */
function placePlainPage(sink: ValueSink, row: number, rowCount: number, raw: Uint8Array, pageRows: number, encoding: string, column: ChunkColumn): number {
  const physicalWidth = PHYSICAL_WIDTH_BYTES[column.meta.type];
  if (encoding !== 'PLAIN' || physicalWidth === undefined || column.schemaPath.length !== 2) return 0;
  if (row + pageRows > rowCount) throw new StorageError(`parquet page holds more rows than its row group [column=${column.element.name}]`);
  let levels: Uint8Array | undefined;
  let valuesStart = 0;
  if (column.element.repetition_type === 'OPTIONAL') {
    const reader = { view: new DataView(raw.buffer, raw.byteOffset, raw.byteLength), offset: 0 };
    const levelBytes = reader.view.getUint32(0, true);
    reader.offset = 4;
    levels = new Uint8Array(pageRows);
    readRleBitPackedHybrid(reader, 1, levels, levelBytes);
    valuesStart = 4 + levelBytes;
    let present = 0;
    for (let k = 0; k < pageRows; k++) present += levels[k];
    if (present === pageRows) levels = undefined;
  }
  return sink.putPlainBytes(row, pageRows, levels, raw.subarray(valuesStart), physicalWidth) ? pageRows : 0;
}

/** Writes one page's rows: values in order, nulls where the definition level is below the maximum (1). */
function placePage(sink: ValueSink, row: number, pageRows: number, levels: readonly number[] | undefined, values: DecodedArray, dictionary: DecodedArray | undefined): void {
  if (levels === undefined || levels.length === 0) {
    sink.putRun(row, values, 0, pageRows, dictionary);
    return;
  }
  let valueIndex = 0;
  let k = 0;
  while (k < pageRows) {
    if (levels[k] === 0) {
      sink.putNull(row + k);
      k++;
      continue;
    }
    let end = k + 1;
    while (end < pageRows && levels[end] !== 0) end++;
    sink.putRun(row + k, values, valueIndex, end - k, dictionary);
    valueIndex += end - k;
    k = end;
  }
}
