// A partition read into memory (RowChunk, storage form) seen as query vectors, and the reverse edits that
// UPDATE and ALTER COLUMN TYPE need: SYMBOL keys turned back into text records (the form
// TableWriter.rewritePartitions takes) and replacement values spliced into chosen rows.
import { isArrayType } from '../types/double-array.js';
import type { ColumnType } from '../types/column-type.js';
import type { ColumnData, RowChunk } from '../storage/row-chunk.js';
import { concatColumns, gatherColumn, varColumnFromStrings, varValueAsString } from '../storage/row-chunk.js';
import type { TableWriter } from '../storage/table-writer.js';
import type { ColumnBatch, Vector } from '../sql/compiler.js';
import { assert } from '../core/assert.js';
import { isTextCodedType, readTextCoded } from '../types/coded-columns.js';

/** Texts of the committed keys of SYMBOL column `columnIndex` (index = key). */
export function symbolTexts(writer: TableWriter, columnIndex: number): string[] {
  const count = writer.txn.symbolCounts[columnIndex] ?? 0;
  const texts = new Array<string>(count);
  for (let key = 0; key < count; key++) texts[key] = writer.symbolText(columnIndex, key) ?? '';
  return texts;
}

/** Copies bytes into a fresh, aligned ArrayBuffer (buffers read from files may sit at any offset of a pool). */
function aligned(bytes: Buffer): ArrayBuffer {
  const copy = new ArrayBuffer(bytes.length);
  new Uint8Array(copy).set(bytes);
  return copy;
}

/** One column of a partition as a query vector of its type. */
export function columnVector(data: ColumnData, type: ColumnType, rowCount: number, symbols: readonly string[] | undefined): Vector {
  if (data.kind === 'var') {
    if (type === 'BINARY' || isArrayType(type)) {
      const values = new Array<Uint8Array | null>(rowCount);
      for (let row = 0; row < rowCount; row++) {
        const start = data.offsets[row];
        const length = data.bytes.readInt32LE(start);
        values[row] = length < 0 ? null : data.bytes.subarray(start + 4, start + 4 + length);
      }
      return { type, data: values };
    }
    const texts = new Array<string | null>(rowCount);
    for (let row = 0; row < rowCount; row++) texts[row] = varValueAsString(data, row);
    return type === 'SYMBOL' ? { type: 'STRING', data: texts } : { type, data: texts };
  }
  const buffer = aligned(data.bytes);
  if (isTextCodedType(type)) return { type, data: readTextCoded(type, data.bytes, 0, rowCount) };
  switch (type) {
    case 'DOUBLE': return { type, data: new Float64Array(buffer, 0, rowCount) };
    case 'FLOAT': return { type, data: new Float32Array(buffer, 0, rowCount) };
    case 'INT': case 'IPV4': return { type, data: new Int32Array(buffer, 0, rowCount) };
    case 'SYMBOL': return { type, data: new Int32Array(buffer, 0, rowCount), symbols: symbols ?? [] };
    case 'SHORT': return { type, data: new Int16Array(buffer, 0, rowCount) };
    case 'CHAR': return { type, data: new Uint16Array(buffer, 0, rowCount) };
    case 'BYTE': case 'BOOLEAN': return { type, data: new Int8Array(buffer, 0, rowCount) };
    case 'LONG': case 'DATE': case 'TIMESTAMP': case 'TIMESTAMP_NS': return int64Vector(type, new BigInt64Array(buffer, 0, rowCount));
    default: return { type: 'STRING', data: new Array<string | null>(rowCount).fill(null) };
  }
}

function int64Vector(type: ColumnType, exact: BigInt64Array): Vector {
  const numbers = new Float64Array(exact.length);
  for (let row = 0; row < exact.length; row++) {
    const value = exact[row];
    numbers[row] = value === -9223372036854775808n ? NaN : Number(value);
  }
  return { type, data: numbers, exact };
}

/** Every column of a partition chunk as vectors, SYMBOL columns resolved through the table's dictionaries. */
export function chunkBatch(chunk: RowChunk, writer: TableWriter): ColumnBatch {
  const vectors = writer.meta.columns.map((column, k) => {
    const symbols = column.type === 'SYMBOL' ? symbolTexts(writer, k) : undefined;
    return columnVector(chunk.columns[k], column.type, chunk.rowCount, symbols);
  });
  return { rowCount: chunk.rowCount, vectors };
}

/** SYMBOL columns as text records (key → text), the form rewritePartitions resolves into keys again. */
export function symbolsAsText(chunk: RowChunk, writer: TableWriter): RowChunk {
  const columns = chunk.columns.map((column, k) => {
    if (writer.meta.columns[k]?.type !== 'SYMBOL' || column.kind !== 'fixed') return column;
    const keys = new Int32Array(aligned(column.bytes), 0, chunk.rowCount);
    const texts = symbolTexts(writer, k);
    const values = new Array<string | null>(chunk.rowCount);
    for (let row = 0; row < chunk.rowCount; row++) {
      const key = keys[row];
      values[row] = key < 0 ? null : (texts[key] ?? null);
    }
    return varColumnFromStrings(values, chunk.rowCount);
  });
  return { rowCount: chunk.rowCount, columns };
}

/** `column` with rows `rows[k]` (ascending) replaced by row k of `replacement` (same storage layout). */
export function spliceRows(column: ColumnData, rowCount: number, rows: Int32Array, count: number, replacement: ColumnData): ColumnData {
  assert(column.kind === replacement.kind, 'spliced columns share a storage layout');
  const indexes = new Int32Array(rowCount);
  for (let row = 0; row < rowCount; row++) indexes[row] = row;
  for (let k = 0; k < count; k++) indexes[rows[k]] = rowCount + k;
  return gatherColumn(concatColumns(column, replacement), indexes, 0, rowCount);
}
