// Fixed-width column types that queries hold as text (UUID, LONG256, GEOHASH): one place that reads a stored
// value into that text and writes it back, so scans, the writer, Parquet conversion and exports agree.
import type { ColumnType, ValueType } from './column-type.js';
import { storageWidthBytes } from './column-type.js';
import { geohashBits, geohashDisplay, geohashFromBase32, geohashToBinary, isGeohashType, readGeohash, writeGeohash } from './geohash.js';
import { parseLong256, readLong256, writeLong256 } from './long256.js';
import { uuidFromBytes, uuidToBytes } from './uuid-ipv4.js';
import { assert } from '../core/assert.js';
import { decimalFromText, decimalPrecision, decimalScale, decimalUnscaled, decimalWidthBytes, isDecimalType, readDecimalTextAt, writeDecimalUnscaled } from './decimal.js';
import type { DecimalType } from './decimal.js';

export function isTextCodedType(type: ValueType): type is ColumnType {
  return type === 'UUID' || type === 'LONG256' || isGeohashType(type) || isDecimalType(type);
}

/** Rows [start, start + count) of a stored column (`bytes` starts at row 0) as text values. */
export function readTextCoded(type: ColumnType, bytes: Buffer, start: number, count: number): (string | null)[] {
  const values = new Array<string | null>(count);
  if (isDecimalType(type)) {
    readDecimalTexts(type, bytes, start, values);
  } else if (isGeohashType(type)) {
    const bits = geohashBits(type);
    for (let k = 0; k < count; k++) values[k] = readGeohash(bytes, start + k, bits);
  } else if (type === 'LONG256') {
    for (let k = 0; k < count; k++) values[k] = readLong256(bytes, (start + k) * 32);
  } else {
    assert(type === 'UUID', 'only UUID, LONG256 and GEOHASH are text-coded');
    for (let k = 0; k < count; k++) values[k] = uuidFromBytes(bytes, (start + k) * 16);
  }
  return values;
}

/** Text values in the type's canonical form (toTextCoded makes it) → storage bytes. */
export function writeTextCoded(type: ColumnType, values: readonly (string | null)[], rowCount: number): Buffer {
  const width = storageWidthBytes(type);
  const bytes = Buffer.alloc(rowCount * width);
  if (isDecimalType(type)) {
    for (let row = 0; row < rowCount; row++) {
      const value = values[row] ?? null;
      writeDecimalUnscaled(bytes, row * width, width, value === null ? null : decimalUnscaled(value));
    }
    return bytes;
  }
  if (isGeohashType(type)) {
    const bits = geohashBits(type);
    for (let row = 0; row < rowCount; row++) writeGeohash(bytes, row, bits, values[row] ?? null);
    return bytes;
  }
  if (type === 'LONG256') {
    for (let row = 0; row < rowCount; row++) writeLong256(bytes, row * 32, values[row] ?? null);
    return bytes;
  }
  assert(type === 'UUID', 'only UUID, LONG256 and GEOHASH are text-coded');
  for (let row = 0; row < rowCount; row++) {
    const value = values[row] ?? null;
    if (value === null) {
      bytes.writeBigInt64LE(-9223372036854775808n, row * 16);
      bytes.writeBigInt64LE(-9223372036854775808n, row * 16 + 8);
      continue;
    }
    const encoded = uuidToBytes(value);
    assert(encoded !== undefined, 'UUID values are canonical before they are written');
    bytes.set(encoded, row * 16);
  }
  return bytes;
}

/**
 * A value of type `from` (text, or a text-coded value) as the canonical text of `to`; null for null, undefined
 * when the value does not convert (the caller reports it). GEOHASH narrows to a lower precision by truncation and
 * never widens; text casts to GEOHASH read base32.
 */
export function toTextCoded(to: ColumnType, from: ValueType, value: string | null): string | null | undefined {
  if (value === null) return null;
  if (from === to) return value;
  if (isDecimalType(to)) return value.length === 0 ? null : decimalFromText(value, to);
  if (isGeohashType(to)) {
    const bits = geohashBits(to);
    if (isGeohashType(from)) {
      const fromBits = geohashBits(from);
      return fromBits < bits ? undefined : geohashDisplay(geohashToBinary(value, fromBits), bits);
    }
    return geohashFromBase32(value, bits);
  }
  if (to === 'LONG256') return value.length === 0 ? null : parseLong256(value);
  assert(to === 'UUID', 'only UUID, LONG256 and GEOHASH are text-coded');
  return value.length === 0 ? null : uuidToBytes(value) === undefined ? undefined : value.toLowerCase();
}

function readDecimalTexts(type: DecimalType, bytes: Buffer, start: number, values: (string | null)[]): void {
  const width = decimalWidthBytes(decimalPrecision(type));
  const scale = decimalScale(type);
  for (let k = 0; k < values.length; k++) values[k] = readDecimalTextAt(bytes, (start + k) * width, width, scale);
}
