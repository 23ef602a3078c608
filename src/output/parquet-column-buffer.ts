// Holds one column of the row group being built, in the physical layout its Parquet type is written in,
// so that encoding reads flat typed arrays. Buffers are allocated once per export for rowGroupRows rows and
// reused for every group; nulls stay as the storage sentinels (NaN, INT_MIN, Long.MIN_VALUE, key -1, 0, null).
import { isArrayType } from '../types/double-array.js';
import { assert, assertNever } from '../core/assert.js';
import { INT_NULL, IPV4_NULL, SYMBOL_NULL_KEY } from '../types/nulls.js';
import { uuidToBytes } from '../types/uuid-ipv4.js';
import type { ValueType } from '../types/column-type.js';
import type { Vector } from '../sql/exec/batch.js';
import { formatInterval } from '../types/interval-value.js';
import { isGeohashType } from '../types/geohash.js';
import { decimalUnscaled, isDecimalType } from '../types/decimal.js';
import { storageWidthBytes } from '../types/column-type.js';

export type ColumnBuffer =
  | { readonly kind: 'f64'; readonly values: Float64Array }
  | { readonly kind: 'f32'; readonly values: Float32Array }
  /** 64-bit integers; `words` views the same memory as [lo, hi] int32 pairs so null checks need no BigInt. */
  | { readonly kind: 'i64'; readonly values: BigInt64Array; readonly words: Int32Array }
  /** INT (null INT_MIN), IPV4 (null 0, compared unsigned), SHORT/BYTE widened (never null). */
  | { readonly kind: 'i32'; readonly values: Int32Array; readonly nullValue: number | undefined; readonly unsigned: boolean }
  | { readonly kind: 'bool'; readonly values: Uint8Array }
  /** STRING, VARCHAR, CHAR (one-character strings), BINARY. */
  | { readonly kind: 'bytes'; readonly values: (string | Uint8Array | null)[] }
  | SymbolBuffer
  /** UUID as 16 big-endian bytes per row; `present` is 0 for null rows. */
  | { readonly kind: 'uuid'; readonly bytes: Uint8Array; readonly present: Uint8Array }
  /** DECIMAL as `width` big-endian two's complement bytes per row (FIXED_LEN_BYTE_ARRAY); `present` 0 for null. */
  | { readonly kind: 'decimal'; readonly width: number; readonly bytes: Uint8Array; readonly present: Uint8Array };

/**
 * SYMBOL keys of the group. While every batch uses one symbol table, keys are copied as they are; a batch with a
 * different table (a UNION of two tables, say) switches the group to keys of its own table built from the texts.
 */
export interface SymbolBuffer {
  readonly kind: 'symbol';
  readonly keys: Int32Array;
  symbols: readonly string[];
  source: readonly string[] | undefined;
  ownKeys: Map<string, number> | undefined;
}

export function createColumnBuffer(type: ValueType, rows: number): ColumnBuffer {
  if (isGeohashType(type)) return { kind: 'bytes', values: new Array<string | Uint8Array | null>(rows).fill(null) };
  if (isDecimalType(type)) {
    const width = storageWidthBytes(type);
    return { kind: 'decimal', width, bytes: new Uint8Array(rows * width), present: new Uint8Array(rows) };
  }
  // Arrays are written in their binary form (raw_array_encoding) or as nested lists (parquet-array-encoding.ts).
  if (isArrayType(type)) return { kind: 'bytes', values: new Array<string | Uint8Array | null>(rows).fill(null) };
  switch (type) {
    case 'DOUBLE': return { kind: 'f64', values: new Float64Array(rows) };
    case 'FLOAT': return { kind: 'f32', values: new Float32Array(rows) };
    case 'LONG': case 'DATE': case 'TIMESTAMP': case 'TIMESTAMP_NS': {
      const values = new BigInt64Array(rows);
      return { kind: 'i64', values, words: new Int32Array(values.buffer) };
    }
    case 'INT': return { kind: 'i32', values: new Int32Array(rows), nullValue: INT_NULL, unsigned: false };
    case 'IPV4': return { kind: 'i32', values: new Int32Array(rows), nullValue: IPV4_NULL, unsigned: true };
    case 'SHORT': case 'BYTE': return { kind: 'i32', values: new Int32Array(rows), nullValue: undefined, unsigned: false };
    case 'BOOLEAN': return { kind: 'bool', values: new Uint8Array(rows) };
    case 'STRING': case 'VARCHAR': case 'CHAR': case 'BINARY': case 'NULL': case 'LONG256': case 'INTERVAL':
      return { kind: 'bytes', values: new Array<string | Uint8Array | null>(rows).fill(null) };
    case 'SYMBOL': return { kind: 'symbol', keys: new Int32Array(rows), symbols: [], source: undefined, ownKeys: undefined };
    case 'UUID': return { kind: 'uuid', bytes: new Uint8Array(rows * 16), present: new Uint8Array(rows) };
    default: return assertNever(type, 'column type');
  }
}

/** Copies rows [from, to) of a batch vector into the buffer at row `at`. */
export function appendToColumnBuffer(buffer: ColumnBuffer, vector: Vector, from: number, to: number, at: number): void {
  const data = vector.data;
  switch (buffer.kind) {
    case 'f64': buffer.values.set((data as Float64Array).subarray(from, to), at); return;
    case 'f32': buffer.values.set((data as Float32Array).subarray(from, to), at); return;
    case 'i64':
      if (vector.exact !== undefined) buffer.values.set(vector.exact.subarray(from, to), at);
      else appendInt64FromNumbers(buffer.words, data as Float64Array, from, to, at);
      return;
    case 'i32': buffer.values.set((data as Int32Array | Int16Array | Int8Array).subarray(from, to), at); return;
    case 'bool': appendBooleans(buffer.values, data as Int8Array, from, to, at); return;
    case 'bytes': appendByteValues(buffer.values, vector, from, to, at); return;
    case 'symbol': appendSymbols(buffer, vector, from, to, at); return;
    case 'uuid': appendUuids(buffer, data as (string | null)[], from, to, at); return;
    case 'decimal': appendDecimals(buffer, data as (string | null)[], from, to, at); return;
    default: assertNever(buffer, 'column buffer');
  }
}

/**
 * Numbers (NaN = null) → int64 words without a BigInt per value: `v >>> 0` is v mod 2^32 (exact for integers
 * below 2^53) and the high word is the floor of v / 2^32, which is two's complement for negatives too.
 */
function appendInt64FromNumbers(words: Int32Array, data: Float64Array, from: number, to: number, at: number): void {
  let w = at * 2;
  for (let i = from; i < to; i++, w += 2) {
    const v = data[i];
    if (v !== v) {
      words[w] = 0;
      words[w + 1] = -2147483648;
    } else {
      words[w] = v >>> 0;
      words[w + 1] = Math.floor(v / 4294967296) | 0;
    }
  }
}

function appendBooleans(values: Uint8Array, data: Int8Array, from: number, to: number, at: number): void {
  for (let i = from, j = at; i < to; i++, j++) values[j] = data[i] === 0 ? 0 : 1;
}

function appendByteValues(values: (string | Uint8Array | null)[], vector: Vector, from: number, to: number, at: number): void {
  if (vector.type === 'CHAR') {
    const chars = vector.data as Uint16Array;
    for (let i = from, j = at; i < to; i++, j++) values[j] = chars[i] === 0 ? null : String.fromCharCode(chars[i]);
    return;
  }
  const source = vector.data as (string | Uint8Array | null)[];
  if (vector.type === 'INTERVAL') {
    for (let i = from, j = at; i < to; i++, j++) values[j] = source[i] === null ? null : formatInterval(source[i] as string);
    return;
  }
  for (let i = from, j = at; i < to; i++, j++) values[j] = source[i];
}

function appendSymbols(buffer: SymbolBuffer, vector: Vector, from: number, to: number, at: number): void {
  const keys = vector.data as Int32Array;
  const symbols = vector.symbols;
  assert(symbols !== undefined, 'a SYMBOL vector carries its symbol table');
  if (buffer.source === undefined && buffer.ownKeys === undefined) {
    buffer.source = symbols;
    buffer.symbols = symbols;
  }
  if (buffer.ownKeys === undefined && buffer.source === symbols) {
    buffer.symbols = symbols; // a table that grew between batches is still the same table
    buffer.keys.set(keys.subarray(from, to), at);
    return;
  }
  if (buffer.ownKeys === undefined) switchToOwnSymbols(buffer, at);
  const own = buffer.ownKeys;
  assert(own !== undefined, 'symbol buffer has its own table after the switch');
  for (let i = from, j = at; i < to; i++, j++) {
    const key = keys[i];
    buffer.keys[j] = key === SYMBOL_NULL_KEY ? SYMBOL_NULL_KEY : ownSymbolKey(buffer, own, symbols[key]);
  }
}

/** Re-keys the rows [0, rows) already in the group against a table owned by the group. */
function switchToOwnSymbols(buffer: SymbolBuffer, rows: number): void {
  const source = buffer.symbols;
  const own = new Map<string, number>();
  buffer.symbols = [];
  buffer.ownKeys = own;
  buffer.source = undefined;
  for (let j = 0; j < rows; j++) {
    const key = buffer.keys[j];
    if (key !== SYMBOL_NULL_KEY) buffer.keys[j] = ownSymbolKey(buffer, own, source[key]);
  }
}

function ownSymbolKey(buffer: SymbolBuffer, own: Map<string, number>, text: string | undefined): number {
  assert(text !== undefined, 'a SYMBOL key indexes into its symbol table');
  let key = own.get(text);
  if (key === undefined) {
    key = own.size;
    own.set(text, key);
    (buffer.symbols as string[]).push(text);
  }
  return key;
}

/** Called when a finished group is encoded: the next group starts with the next batch's table again. */
export function resetColumnBuffer(buffer: ColumnBuffer): void {
  if (buffer.kind === 'bytes') buffer.values.fill(null);
  if (buffer.kind !== 'symbol') return;
  buffer.symbols = [];
  buffer.source = undefined;
  buffer.ownKeys = undefined;
}

function appendUuids(buffer: { bytes: Uint8Array; present: Uint8Array }, data: (string | null)[], from: number, to: number, at: number): void {
  for (let i = from, j = at; i < to; i++, j++) {
    const text = data[i];
    buffer.present[j] = text === null ? 0 : 1;
    if (text !== null) parseUuidInto(text, buffer.bytes, j * 16);
  }
}

/**
 * Canonical text → the 16 bytes of the UUID logical type: the digits in text order (big-endian), which is the
 * storage form (lo then hi, each little-endian) read backwards.
 */
function parseUuidInto(text: string, out: Uint8Array, at: number): void {
  const storage = uuidToBytes(text);
  assert(storage !== undefined, 'UUID vectors hold canonical text');
  for (let k = 0; k < 16; k++) out[at + k] = storage[15 - k];
}

/** Canonical decimal text → the unscaled value as big-endian two's complement, the Parquet DECIMAL layout. */
function appendDecimals(buffer: { width: number; bytes: Uint8Array; present: Uint8Array }, data: (string | null)[], from: number, to: number, at: number): void {
  const width = buffer.width;
  for (let i = from, j = at; i < to; i++, j++) {
    const text = data[i];
    buffer.present[j] = text === null ? 0 : 1;
    if (text === null) continue;
    let rest = BigInt.asUintN(width * 8, decimalUnscaled(text));
    for (let k = width - 1; k >= 0; k--) {
      buffer.bytes[j * width + k] = Number(rest & 0xffn);
      rest >>= 8n;
    }
  }
}
