// DOUBLE[] columns in Parquet's nested encoding (QuestDB's default for arrays; `raw_array_encoding=true`
// writes the binary value as BYTE_ARRAY instead): an n-dimensional array is n nested 3-level LISTs
//   optional group a (LIST) { repeated group list { required group element (LIST) { … optional double element } } }
// so a NULL array has definition level 0, an empty list at depth z has 1 + z, a NULL element d + 1 and a value
// d + 2; the repetition level of an entry is 1 + the outermost dimension whose index moved (0 for a row's first).
// One chunk is written as one data page of PLAIN doubles; DuckDB and Arrow read it back as nested lists.
import { writeRleBitPackedHybrid } from 'hyparquet-writer/src/encoding.js';
import { writePageHeader } from 'hyparquet-writer/src/datapage.js';
import { ByteWriter } from 'hyparquet-writer';
import type { ColumnChunk, PageHeader, SchemaElement } from 'hyparquet';
import { assert } from '../core/assert.js';
import { arrayShape, arrayValues } from '../types/double-array.js';
import type { ChunkSettings, ParquetOutput, WrittenChunk } from './parquet-column-chunk.js';

/** The schema elements of an array column of `dims` dimensions, outermost first. */
export function arraySchemaElements(name: string, dims: number): SchemaElement[] {
  const elements: SchemaElement[] = [];
  for (let level = 0; level < dims; level++) {
    const outer = level === 0;
    elements.push({ name: outer ? name : 'element', repetition_type: outer ? 'OPTIONAL' : 'REQUIRED', num_children: 1, converted_type: 'LIST', logical_type: { type: 'LIST' } });
    elements.push({ name: 'list', repetition_type: 'REPEATED', num_children: 1 });
  }
  elements.push({ name: 'element', repetition_type: 'OPTIONAL', type: 'DOUBLE' });
  return elements;
}

function arrayLeafPath(name: string, dims: number): string[] {
  const path = [name];
  for (let level = 0; level < dims; level++) path.push('list', 'element');
  return path;
}

interface ArrayLevels {
  readonly repetition: Uint8Array;
  readonly definition: Uint8Array;
  readonly values: Float64Array;
  readonly entries: number;
  readonly nulls: number;
}

/** Repetition and definition levels of every entry of the chunk, and its non-null elements in order. */
function arrayLevels(arrays: readonly (Uint8Array | null)[], rows: number, dims: number): ArrayLevels {
  let entriesMax = 0;
  for (let row = 0; row < rows; row++) {
    const value = arrays[row];
    entriesMax += value === null || value === undefined ? 1 : Math.max(1, arrayValues(value).length);
  }
  const repetition = new Uint8Array(entriesMax);
  const definition = new Uint8Array(entriesMax);
  const values = new Float64Array(entriesMax);
  let entries = 0;
  let valueCount = 0;
  let nulls = 0;
  for (let row = 0; row < rows; row++) {
    const value = arrays[row] ?? null;
    if (value === null) {
      definition[entries++] = 0;
      nulls++;
      continue;
    }
    const shape = arrayShape(value);
    assert(shape.length === dims, 'every array of a column has the column\'s dimensionality');
    let empty = shape.indexOf(0);
    if (empty < 0) empty = dims;
    // The entries are the index combinations of the dimensions before the first empty one (or the elements).
    const elements = arrayValues(value);
    const counters = new Array<number>(empty).fill(0);
    let count = 1;
    for (let d = 0; d < empty; d++) count *= shape[d];
    for (let k = 0; k < count; k++) {
      let moved = 0;
      if (k > 0) {
        for (let d = empty - 1; d >= 0; d--) {
          counters[d] = counters[d] + 1;
          if (counters[d] < shape[d]) {
            moved = d + 1;
            break;
          }
          counters[d] = 0;
        }
      }
      repetition[entries] = moved;
      if (empty < dims) {
        definition[entries++] = 1 + empty;
        continue;
      }
      const element = elements[k];
      if (element !== element) {
        definition[entries++] = dims + 1;
        nulls++;
      } else {
        definition[entries++] = dims + 2;
        values[valueCount++] = element;
      }
    }
  }
  return { repetition: repetition.subarray(0, entries), definition: definition.subarray(0, entries), values: values.subarray(0, valueCount), entries, nulls };
}

function levelBytes(levels: Uint8Array, maxLevel: number, lengthPrefix: boolean): Uint8Array {
  const writer = new ByteWriter();
  const bitWidth = Math.ceil(Math.log2(maxLevel + 1));
  if (lengthPrefix) writer.appendUint32(0);
  const start = writer.offset;
  writeRleBitPackedHybrid(writer, levels, bitWidth);
  const bytes = writer.getBytes().slice();
  if (lengthPrefix) new DataView(bytes.buffer).setInt32(0, bytes.length - 4, true);
  assert(writer.offset - start === bytes.length - (lengthPrefix ? 4 : 0), 'level bytes are what the hybrid encoder wrote');
  return bytes;
}

export function writeArrayColumnChunk(out: ParquetOutput, arrays: readonly (Uint8Array | null)[], rows: number, dims: number, settings: ChunkSettings): WrittenChunk {
  assert(rows > 0, 'row groups are written only when they hold rows');
  const levels = arrayLevels(arrays, rows, dims);
  const plain = new Uint8Array(levels.values.buffer, levels.values.byteOffset, levels.values.length * 8);
  const chunkStart = out.offset;
  const v2 = settings.parquetVersion === 2;
  const repetition = levelBytes(levels.repetition, dims, !v2);
  const definition = levelBytes(levels.definition, dims + 2, !v2);
  let payload = plain;
  if (!v2) {
    payload = new Uint8Array(repetition.length + definition.length + plain.length);
    payload.set(repetition, 0);
    payload.set(definition, repetition.length);
    payload.set(plain, repetition.length + definition.length);
  }
  const body = settings.compressor === undefined ? payload : settings.compressor(payload);
  const header: PageHeader = v2
    ? {
      type: 'DATA_PAGE_V2', uncompressed_page_size: repetition.length + definition.length + plain.length,
      compressed_page_size: repetition.length + definition.length + body.length,
      data_page_header_v2: {
        num_values: levels.entries, num_nulls: levels.nulls, num_rows: rows, encoding: 'PLAIN',
        definition_levels_byte_length: definition.length, repetition_levels_byte_length: repetition.length,
        is_compressed: settings.compressor !== undefined,
      },
    }
    : {
      type: 'DATA_PAGE', uncompressed_page_size: payload.length, compressed_page_size: body.length,
      data_page_header: { num_values: levels.entries, encoding: 'PLAIN', definition_level_encoding: 'RLE', repetition_level_encoding: 'RLE' },
    };
  const headerWriter = new ByteWriter();
  writePageHeader(headerWriter, header);
  const headerBytes = headerWriter.getBytes().slice();
  out.push(headerBytes);
  if (v2) {
    out.push(repetition);
    out.push(definition);
  }
  out.push(body);
  const chunk: ColumnChunk = {
    file_offset: BigInt(chunkStart),
    meta_data: {
      type: 'DOUBLE',
      encodings: ['PLAIN', 'RLE'],
      path_in_schema: arrayLeafPath(settings.name, dims),
      codec: settings.codec,
      num_values: BigInt(levels.entries),
      total_uncompressed_size: BigInt(headerBytes.length + header.uncompressed_page_size),
      total_compressed_size: BigInt(out.offset - chunkStart),
      data_page_offset: BigInt(chunkStart),
    },
  };
  return { chunk, bloomFilter: undefined };
}
