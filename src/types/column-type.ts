// The column type system shared by storage, SQL and output: names as QuestDB prints them,
// storage widths, and how each type is held in memory while a query runs.
// GEOHASH types carry their precision in the name (types/geohash.ts), arrays their dimensionality
// (types/double-array.ts); INTERVAL is only an expression result.
import type { GeohashType } from './geohash.js';
import { GEOHASH_TYPES, geohashBits, geohashDisplayName, geohashTypeOf, geohashWidthBytes, isGeohashType, parseGeohashPrecision } from './geohash.js';
import type { DoubleArrayType } from './double-array.js';
import { isArrayType, parseArrayTypeName } from './double-array.js';
import type { DecimalType } from './decimal.js';
import { decimalPrecision, decimalWidthBytes, isDecimalType, parseDecimalTypeName } from './decimal.js';

export const COLUMN_TYPES = [
  'BOOLEAN', 'BYTE', 'SHORT', 'CHAR', 'INT', 'LONG', 'FLOAT', 'DOUBLE', 'DATE', 'TIMESTAMP',
  'SYMBOL', 'STRING', 'VARCHAR', 'UUID', 'IPV4', 'BINARY', 'LONG256', 'TIMESTAMP_NS',
] as const;

/** A storable column type: one of COLUMN_TYPES, a GEOHASH precision, an array type or a DECIMAL(p,s). */
export type ColumnType = (typeof COLUMN_TYPES)[number] | GeohashType | DoubleArrayType | DecimalType;

/** A type an expression can have: every column type, INTERVAL (never stored) and the type of a bare NULL literal. */
export type ValueType = ColumnType | 'INTERVAL' | 'NULL';

/** Fixed widths of the non-array types; read through storageWidthBytes. */
const STORAGE_WIDTH_BYTES: Readonly<Record<Exclude<ColumnType, DoubleArrayType | DecimalType>, number>> = {
  BOOLEAN: 1, BYTE: 1, SHORT: 2, CHAR: 2, INT: 4, LONG: 8, FLOAT: 4, DOUBLE: 8, DATE: 8, TIMESTAMP: 8,
  SYMBOL: 4, STRING: 0, VARCHAR: 0, UUID: 16, IPV4: 4, BINARY: 0, LONG256: 32, TIMESTAMP_NS: 8,
  ...perGeohashType((type) => geohashWidthBytes(geohashBits(type))),
};

/** A table entry for every GEOHASH precision. */
export function perGeohashType<T>(valueOf: (type: GeohashType) => T): Record<GeohashType, T> {
  const entries: Partial<Record<GeohashType, T>> = {};
  for (const type of GEOHASH_TYPES) entries[type] = valueOf(type);
  return entries as Record<GeohashType, T>;
}

/** Bytes per value in a `<column>.d` file; 0 for variable-size types (they also have a `.i` file). */
export function storageWidthBytes(type: ColumnType): number {
  if (isDecimalType(type)) return decimalWidthBytes(decimalPrecision(type));
  return isArrayType(type) ? 0 : STORAGE_WIDTH_BYTES[type];
}

/** Fixed byte width reported by the import JSON report (`size`). */
export function importReportSize(type: ColumnType): number {
  return storageWidthBytes(type);
}

export function isVariableSize(type: ColumnType): boolean {
  return storageWidthBytes(type) === 0;
}

/** Whether a string read from metadata or a message names a column type (canonical form, GEOHASH in bits). */
export function isColumnTypeName(value: unknown): value is ColumnType {
  return typeof value === 'string'
    && ((COLUMN_TYPES as readonly string[]).includes(value) || isGeohashType(value) || parseArrayTypeName(value) !== undefined || isDecimalType(value));
}

/** The name QuestDB prints in `columns[].type`. */
export function typeDisplayName(type: ValueType): string {
  if (type === 'IPV4') return 'IPv4';
  if (type === 'NULL') return 'STRING';
  if (isGeohashType(type)) return geohashDisplayName(type);
  return type;
}

/** Parses a type name as written in DDL or a schema (case-insensitive); undefined when unknown. */
export function parseColumnType(name: string): ColumnType | undefined {
  const upper = name.toUpperCase();
  const geohash = /^GEOHASH\((\w+)\)$/.exec(upper);
  if (geohash !== null) {
    const bits = parseGeohashPrecision(geohash[1] ?? '');
    return typeof bits === 'number' ? geohashTypeOf(bits) : undefined;
  }
  if (upper.startsWith('DECIMAL') || upper.startsWith('NUMERIC')) return parseDecimalTypeName(upper);
  if (upper === 'TEXT') return 'VARCHAR';
  if (upper === 'INTEGER') return 'INT';
  if (upper === 'BIGINT') return 'LONG';
  if (upper === 'SMALLINT') return 'SHORT';
  if (upper === 'REAL') return 'FLOAT';
  if (upper === 'FLOAT8' || upper === 'DOUBLE PRECISION') return 'DOUBLE';
  if (upper === 'FLOAT4') return 'FLOAT';
  if (upper === 'BOOL') return 'BOOLEAN';
  if (upper.startsWith('DOUBLE[')) return parseArrayTypeName(upper);
  return (COLUMN_TYPES as readonly string[]).includes(upper) ? (upper as ColumnType) : undefined;
}

/**
 * How values of a type are held in a vector while a query runs:
 * - 'f64': Float64Array (DOUBLE; LONG/DATE/TIMESTAMP as numbers, exact within ±2^53, NaN = null)
 * - 'f32': Float32Array (FLOAT, NaN = null)
 * - 'i32': Int32Array (INT with 0x80000000 = null, IPV4 with 0 = null, SYMBOL keys with -1 = null)
 * - 'i16': Int16Array (SHORT); 'u16': Uint16Array (CHAR, 0 = null); 'i8': Int8Array (BYTE, BOOLEAN 0/1)
 * - 'str': (string | null)[] (STRING, VARCHAR; UUID, LONG256, GEOHASH and DECIMAL in their display text; INTERVAL as
 *   `<lo>,<hi>` epoch µs)
 * - 'bin': (Uint8Array | null)[] (BINARY, and arrays in their binary form of types/double-array.ts)
 */
export type VectorKind = 'f64' | 'f32' | 'i32' | 'i16' | 'u16' | 'i8' | 'str' | 'bin';

const VECTOR_KIND: Readonly<Record<Exclude<ValueType, DoubleArrayType | DecimalType>, VectorKind>> = {
  BOOLEAN: 'i8', BYTE: 'i8', SHORT: 'i16', CHAR: 'u16', INT: 'i32', LONG: 'f64', FLOAT: 'f32', DOUBLE: 'f64',
  DATE: 'f64', TIMESTAMP: 'f64', SYMBOL: 'i32', STRING: 'str', VARCHAR: 'str', UUID: 'str', IPV4: 'i32',
  BINARY: 'bin', NULL: 'str', LONG256: 'str', INTERVAL: 'str', TIMESTAMP_NS: 'f64',
  ...perGeohashType((): VectorKind => 'str'),
};

export function vectorKindOfType(type: ValueType): VectorKind {
  if (isDecimalType(type)) return 'str';
  return isArrayType(type) ? 'bin' : VECTOR_KIND[type];
}

/** Types whose storage is 64-bit integers (held as numbers in vectors, with an exact BigInt64Array when available). */
export function isInt64Type(type: ValueType): boolean {
  return type === 'LONG' || type === 'DATE' || type === 'TIMESTAMP' || type === 'TIMESTAMP_NS';
}

/**
 * Types that are not text but are held as text while a query runs (UUID, LONG256, GEOHASH, INTERVAL): their null
 * is null, equal values are equal strings, and they print from that text.
 */
export function isTextHeldType(type: ValueType): boolean {
  return type === 'UUID' || type === 'LONG256' || type === 'INTERVAL' || isGeohashType(type) || isDecimalType(type);
}

export function isNumericType(type: ValueType): boolean {
  return type === 'BYTE' || type === 'SHORT' || type === 'INT' || type === 'LONG' || type === 'FLOAT' || type === 'DOUBLE';
}

export function isStringLike(type: ValueType): boolean {
  return type === 'STRING' || type === 'VARCHAR' || type === 'SYMBOL' || type === 'CHAR';
}
