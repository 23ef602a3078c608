// Vectors → storage form. `coerceVector` converts a query result vector to a table column's type with
// QuestDB's insert rules; `encodeColumn` lays a vector of exactly that type out as column-file bytes.
import { isArrayType } from '../types/double-array.js';
import { encodeArrayColumn } from './encode-array.js';
import type { ColumnType, ValueType } from '../types/column-type.js';
import { isNumericType, storageWidthBytes, typeDisplayName } from '../types/column-type.js';
import { isTextCodedType, toTextCoded, writeTextCoded } from '../types/coded-columns.js';
import { isDecimalType } from '../types/decimal.js';
import { isGeohashType } from '../types/geohash.js';
import type { ColumnData } from '../storage/row-chunk.js';
import { varColumnFromBinary, varColumnFromStrings, varValueAsString } from '../storage/row-chunk.js';
import type { Vector } from '../sql/compiler.js';
import { vectorValue } from '../sql/compiler.js';
import { sqlRuntimeError, sqlSemanticError } from '../core/errors.js';
import { parseTimestamp, formatTimestamp, formatDate } from '../types/timestamp.js';
import { parseIpv4, formatIpv4 } from '../types/uuid-ipv4.js';
import { formatDouble, formatFloat } from '../types/value-format.js';
import { writeInt64Words } from '../types/int64-words.js';
import { encodeTimestampNsColumn } from './encode-timestamp-ns.js';
import { formatTimestampNanosNumber } from '../types/timestamp-ns.js';

function textOf(value: number | string | boolean | null | Uint8Array, type: ValueType): string | null {
  if (value === null) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (value instanceof Uint8Array) return null;
  if (value !== value) return null;
  switch (type) {
    case 'TIMESTAMP': return formatTimestamp(value);
    case 'DATE': return formatDate(value);
    case 'TIMESTAMP_NS': return formatTimestampNanosNumber(value);
    case 'DOUBLE': return formatDouble(value);
    case 'FLOAT': return formatFloat(value);
    case 'IPV4': return formatIpv4(value | 0);
    default: return String(value);
  }
}

function numberOf(value: number | string | boolean | null | Uint8Array, from: ValueType, to: ColumnType, position: number): number {
  if (value === null) return NaN;
  if (typeof value === 'number' && from === 'TIMESTAMP_NS') return to === 'TIMESTAMP' ? Math.floor(value / 1000) : to === 'DATE' ? Math.floor(value / 1_000_000) : value;
  if (typeof value === 'number') return from === 'TIMESTAMP' && to === 'DATE' ? Math.floor(value / 1000) : from === 'DATE' && to === 'TIMESTAMP' ? value * 1000 : value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Uint8Array) throw sqlSemanticError(`inconvertible types: BINARY -> ${typeDisplayName(to)}`, position);
  if (to === 'TIMESTAMP' || to === 'DATE') {
    const micros = parseTimestamp(value);
    if (micros === undefined) throw sqlRuntimeError(`inconvertible value: \`${value}\` [${typeDisplayName(from)} -> ${typeDisplayName(to)}]`, position);
    return to === 'DATE' ? Math.floor(micros / 1000) : micros;
  }
  if (to === 'IPV4') {
    const parsed = parseIpv4(value);
    if (parsed === undefined) throw sqlRuntimeError(`inconvertible value: \`${value}\` [${typeDisplayName(from)} -> IPv4]`, position);
    return parsed >>> 0;
  }
  const trimmed = value.trim();
  const parsed = trimmed === '' ? NaN : Number(trimmed);
  if (parsed !== parsed || (to !== 'DOUBLE' && to !== 'FLOAT' && !Number.isInteger(parsed))) {
    throw sqlRuntimeError(`inconvertible value: \`${value}\` [${typeDisplayName(from)} -> ${typeDisplayName(to)}]`, position);
  }
  return parsed;
}

function assertConvertible(from: ValueType, to: ColumnType, position: number): void {
  const text = (from === 'STRING' || from === 'VARCHAR' || from === 'SYMBOL' || from === 'CHAR' || from === 'NULL') && !isArrayType(to);
  const numeric = isNumericType(from) || from === 'TIMESTAMP' || from === 'DATE' || from === 'TIMESTAMP_NS';
  const ok = from === to || text || to === 'STRING' || to === 'VARCHAR' || to === 'SYMBOL'
    || (numeric && (isNumericType(to) || to === 'TIMESTAMP' || to === 'DATE' || to === 'TIMESTAMP_NS'))
    || (from === 'BOOLEAN' && (isNumericType(to) || to === 'BOOLEAN'))
    || (isArrayType(to) && (from === 'NULL' || from === 'STRING' || from === 'VARCHAR'))
    || (from === 'IPV4' && to === 'IPV4') || (from === 'BINARY' && to === 'BINARY')
    || (isTextCodedType(to) && (from === to || (isGeohashType(from) && isGeohashType(to))))
    || (isDecimalType(to) && (isDecimalType(from) || from === 'BYTE' || from === 'SHORT' || from === 'INT' || from === 'LONG'));
  if (!ok) throw sqlSemanticError(`inconvertible types: ${typeDisplayName(from)} -> ${typeDisplayName(to)}`, position);
}

/**
 * Lays rows [0, rowCount) of a vector out as storage bytes for a column of type `to`, converting from the
 * vector's type (insert coercion). For SYMBOL columns the result is text records (the writer assigns keys).
 */
export function encodeColumn(vector: Vector, rowCount: number, to: ColumnType, position: number): ColumnData {
  assertConvertible(vector.type, to, position);
  const from = vector.type;
  if (to === 'STRING' || to === 'VARCHAR' || to === 'SYMBOL') {
    if (from === 'STRING' || from === 'VARCHAR') return varColumnFromStrings(vector.data as (string | null)[], rowCount);
    const values = new Array<string | null>(rowCount);
    for (let row = 0; row < rowCount; row++) values[row] = textOf(vectorValue(vector, row), from);
    return varColumnFromStrings(values, rowCount);
  }
  if (to === 'BINARY') return varColumnFromBinary(vector.data as (Uint8Array | null)[], rowCount);
  if (isArrayType(to)) return encodeArrayColumn(vector, rowCount, to, position);
  if (isTextCodedType(to)) return encodeTextCoded(vector, rowCount, to, position);
  if (to === 'TIMESTAMP_NS' && (from !== to || vector.exact === undefined)) return encodeTimestampNsColumn(vector, rowCount, position);
  if (from === to && vector.exact !== undefined) {
    return { kind: 'fixed', width: 8, bytes: Buffer.from(vector.exact.buffer, vector.exact.byteOffset, rowCount * 8) };
  }
  return encodeFixed(vector, rowCount, to, position);
}

function encodeFixed(vector: Vector, rowCount: number, to: ColumnType, position: number): ColumnData {
  const from = vector.type;
  const direct = from === to && ArrayBuffer.isView(vector.data) && to !== 'LONG' && to !== 'DATE' && to !== 'TIMESTAMP';
  if (direct) {
    const data = vector.data as Int32Array;
    const width = data.BYTES_PER_ELEMENT;
    return { kind: 'fixed', width, bytes: Buffer.from(data.buffer, data.byteOffset, rowCount * width) };
  }
  const fastNumbers = (from === 'DOUBLE' || from === 'LONG' || from === 'TIMESTAMP' || from === 'DATE') && (to === 'LONG' || to === 'TIMESTAMP' || to === 'DATE') && from !== 'DOUBLE';
  if (fastNumbers && (from === to || (from !== 'DATE' && to !== 'DATE'))) return encodeInt64Numbers(vector.data as Float64Array, rowCount);
  const width = to === 'LONG' || to === 'DATE' || to === 'TIMESTAMP' || to === 'DOUBLE' ? 8 : to === 'INT' || to === 'FLOAT' || to === 'IPV4' ? 4 : to === 'SHORT' || to === 'CHAR' ? 2 : 1;
  const bytes = Buffer.allocUnsafe(rowCount * width);
  for (let row = 0; row < rowCount; row++) {
    const value = vectorValue(vector, row);
    if (to === 'BOOLEAN') {
      bytes.writeInt8(value === true || (typeof value === 'number' && value !== 0 && value === value) || (typeof value === 'string' && value.toLowerCase() === 'true') ? 1 : 0, row);
      continue;
    }
    if (to === 'CHAR') {
      const text = typeof value === 'string' ? value : textOf(value, from);
      bytes.writeUInt16LE(text === null || text.length === 0 ? 0 : text.charCodeAt(0), row * 2);
      continue;
    }
    writeNumber(bytes, row, width, to, numberOf(value, from, to, position));
  }
  return { kind: 'fixed', width, bytes };
}

function writeNumber(bytes: Buffer, row: number, width: number, to: ColumnType, value: number): void {
  const offset = row * width;
  switch (to) {
    case 'DOUBLE': bytes.writeDoubleLE(value, offset); return;
    case 'FLOAT': bytes.writeFloatLE(value, offset); return;
    case 'INT': bytes.writeInt32LE(value !== value || !Number.isFinite(value) ? -2147483648 : Math.trunc(value) | 0, offset); return;
    case 'IPV4': bytes.writeInt32LE(value !== value ? 0 : value | 0, offset); return;
    case 'SHORT': bytes.writeInt16LE(value !== value ? 0 : (Math.trunc(value) << 16) >> 16, offset); return;
    case 'BYTE': bytes.writeInt8(value !== value ? 0 : (Math.trunc(value) << 24) >> 24, offset); return;
    default: writeInt64(bytes, offset, value);
  }
}

function writeInt64(bytes: Buffer, offset: number, value: number): void {
  if (value !== value || !Number.isFinite(value)) {
    bytes.writeInt32LE(0, offset);
    bytes.writeInt32LE(-2147483648, offset + 4);
    return;
  }
  const integral = Math.trunc(value);
  const hi = Math.floor(integral / 4294967296);
  bytes.writeUInt32LE(integral - hi * 4294967296, offset);
  bytes.writeInt32LE(hi | 0, offset + 4);
}

function encodeInt64Numbers(data: Float64Array, rowCount: number): ColumnData {
  const words = new Int32Array(rowCount * 2);
  for (let row = 0; row < rowCount; row++) writeInt64Words(words, row, Math.trunc(data[row]));
  return { kind: 'fixed', width: 8, bytes: Buffer.from(words.buffer) };
}

function encodeTextCoded(vector: Vector, rowCount: number, to: ColumnType, position: number): ColumnData {
  const values = new Array<string | null>(rowCount);
  for (let row = 0; row < rowCount; row++) {
    const value = vectorValue(vector, row);
    const text = typeof value === 'string' || value === null ? value : textOf(value, vector.type);
    const converted = toTextCoded(to, vector.type, text);
    if (converted === undefined) {
      throw sqlRuntimeError(`inconvertible value: \`${String(text)}\` [${typeDisplayName(vector.type)} -> ${typeDisplayName(to)}]`, position);
    }
    values[row] = converted;
  }
  return { kind: 'fixed', width: storageWidthBytes(to), bytes: writeTextCoded(to, values, rowCount) };
}

/**
 * A UUID, LONG256 or GEOHASH column staged as text (imports and ILP stage them that way) in storage form; a
 * column already in that form is returned as it is.
 */
export function textCodedColumnFromText(staged: ColumnData, rowCount: number, type: ColumnType): ColumnData {
  if (staged.kind === 'fixed') return staged;
  const values = new Array<string | null>(rowCount);
  for (let row = 0; row < rowCount; row++) values[row] = varValueAsString(staged, row);
  // Staged text is already each value's canonical text (import parsers and ILP convert as they stage).
  return encodeColumn({ type, data: values }, rowCount, type, 0);
}
