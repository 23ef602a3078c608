// Where decoded Parquet values land: a row group's storage-form column. A fixed sink writes into typed-array
// views of one buffer (a straight `set` when the page's values already have the storage layout, a converting
// loop otherwise: dictionary lookup, time-unit scaling, narrowing, booleans, UUID byte order); a variable-size
// sink collects byte strings and builds [int32 length][bytes] records at the end. Null rows get the sentinels.
import type { DecodedArray } from 'hyparquet';
import type { ColumnType } from '../../types/column-type.js';
import { storageWidthBytes } from '../../types/column-type.js';
import { writeTextCoded } from '../../types/coded-columns.js';
import { isGeohashType } from '../../types/geohash.js';
import { isDecimalType, writeDecimalUnscaled } from '../../types/decimal.js';
import type { ColumnData } from '../row-chunk.js';
import { nullValueBytes } from '../column-files.js';
import { assert } from '../../core/assert.js';
import type { ChunkColumn } from './parquet-column-decoder.js';

export interface ValueSink {
  /** Rows [row, row + count) take values[from .. from + count), through `dictionary` when given. */
  putRun(row: number, values: DecodedArray, from: number, count: number, dictionary: DecodedArray | undefined): void;
  putNull(row: number): void;
  /**
   * A PLAIN page of values whose bytes already have the storage layout (same width, no unit scaling): copied
   * as bytes, with nulls where `levels` is 0. Returns false when the column needs conversion instead.
   */
  putPlainBytes(row: number, pageRows: number, levels: Uint8Array | undefined, valueBytes: Uint8Array, physicalWidth: number): boolean;
  finish(): ColumnData;
}

const utf8 = new TextDecoder();

/** Value `index` of a page run: the value itself, or the dictionary entry it names in a dictionary-coded page. */
function runValue(values: DecodedArray, index: number, dictionary: DecodedArray | undefined): Scalar {
  const raw = values[index] as Scalar;
  return dictionary === undefined ? raw : (dictionary[raw as number] as Scalar);
}

type Scalar = number | bigint | boolean | Uint8Array | string | null | undefined;

/** Multiplier and divisor turning the file's time unit into the storage unit (ns for TIMESTAMP_NS, µs for TIMESTAMP, ms for DATE). */
function timeScale(column: ChunkColumn): { multiply: bigint; divide: bigint } {
  const element = column.element;
  let unitMicros = 0; // the file's unit in nanoseconds: 0 = not a time
  const logical = element.logical_type;
  if (logical?.type === 'TIMESTAMP') unitMicros = logical.unit === 'NANOS' ? 1 : logical.unit === 'MICROS' ? 1000 : 1_000_000;
  else if (element.converted_type === 'TIMESTAMP_MICROS') unitMicros = 1000;
  else if (element.converted_type === 'TIMESTAMP_MILLIS') unitMicros = 1_000_000;
  else if (element.converted_type === 'DATE' || logical?.type === 'DATE') unitMicros = 86_400_000_000_000;
  if (unitMicros === 0 || (column.type !== 'TIMESTAMP' && column.type !== 'DATE' && column.type !== 'TIMESTAMP_NS')) return { multiply: 1n, divide: 1n };
  const storageNanos = column.type === 'TIMESTAMP_NS' ? 1 : column.type === 'TIMESTAMP' ? 1000 : 1_000_000;
  return unitMicros >= storageNanos ? { multiply: BigInt(unitMicros / storageNanos), divide: 1n } : { multiply: 1n, divide: BigInt(storageNanos / unitMicros) };
}

function toBigInt(value: Scalar): bigint {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number') return BigInt(Math.trunc(value));
  return value === true ? 1n : 0n;
}

function toNumber(value: Scalar): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string') return value.length > 0 ? value.charCodeAt(0) : 0;
  if (value instanceof Uint8Array) return value.length > 0 ? utf8.decode(value).charCodeAt(0) : 0;
  return 0;
}

export function createFixedSink(column: ChunkColumn, rowCount: number, width: number): ValueSink {
  if (column.type === 'LONG256' || isGeohashType(column.type)) return createTextCodedSink(column.type, rowCount);
  if (isDecimalType(column.type)) return createDecimalSink(rowCount, storageWidthBytes(column.type));
  const bytes = Buffer.alloc(rowCount * width);
  const type: ColumnType = column.type;
  const nullBytes = nullValueBytes(type);
  const scale = timeScale(column);
  const scaled = scale.multiply !== 1n || scale.divide !== 1n;
  const base = bytes.byteOffset;
  const i64 = width === 8 && type !== 'DOUBLE' ? new BigInt64Array(bytes.buffer, base, rowCount) : undefined;
  const f64 = type === 'DOUBLE' ? new Float64Array(bytes.buffer, base, rowCount) : undefined;
  const f32 = type === 'FLOAT' ? new Float32Array(bytes.buffer, base, rowCount) : undefined;
  const i32 = width === 4 && type !== 'FLOAT' ? new Int32Array(bytes.buffer, base, rowCount) : undefined;
  const i16 = type === 'SHORT' ? new Int16Array(bytes.buffer, base, rowCount) : undefined;
  const u16 = type === 'CHAR' ? new Uint16Array(bytes.buffer, base, rowCount) : undefined;
  const i8 = width === 1 ? new Int8Array(bytes.buffer, base, rowCount) : undefined;
  return {
    putRun(row, values, from, count, dictionary) {
      assert(row + count <= rowCount && from + count <= values.length, 'a page run stays inside its row group and its values');
      if (dictionary === undefined && !scaled) {
        // Fast path: the page's values already have the storage layout.
        if (i64 !== undefined && values instanceof BigInt64Array) { i64.set(values.subarray(from, from + count), row); return; }
        if (f64 !== undefined && values instanceof Float64Array) { f64.set(values.subarray(from, from + count), row); return; }
        if (f32 !== undefined && values instanceof Float32Array) { f32.set(values.subarray(from, from + count), row); return; }
        if (i32 !== undefined && values instanceof Int32Array) { i32.set(values.subarray(from, from + count), row); return; }
      }
      for (let k = 0; k < count; k++) {
        const value = runValue(values, from + k, dictionary);
        const at = row + k;
        if (i64 !== undefined) {
          const big = toBigInt(value);
          i64[at] = scaled ? (big * scale.multiply) / scale.divide : big;
        } else if (f64 !== undefined) f64[at] = toNumber(value);
        else if (f32 !== undefined) f32[at] = toNumber(value);
        else if (i32 !== undefined) i32[at] = toNumber(value);
        else if (i16 !== undefined) i16[at] = toNumber(value);
        else if (u16 !== undefined) u16[at] = toNumber(value);
        else if (i8 !== undefined) i8[at] = toNumber(value);
        else if (value instanceof Uint8Array && value.length === 16) {
          // Parquet UUIDs are big-endian; storage keeps lo then hi, each little-endian: the reverse byte order.
          for (let b = 0; b < 16; b++) bytes[at * 16 + b] = value[15 - b];
        }
      }
    },
    putNull(row) {
      nullBytes.copy(bytes, row * width);
    },
    putPlainBytes(row, pageRows, levels, valueBytes, physicalWidth) {
      if (physicalWidth !== width || scaled) return false;
      assert(row + pageRows <= rowCount, 'a page stays inside its row group');
      copyPlainPage(bytes, width, nullBytes, row, pageRows, levels, valueBytes);
      return true;
    },
    finish() {
      return { kind: 'fixed', width, bytes };
    },
  };
}

/** A PLAIN page of fixed-width values already in storage layout, spread over its rows (nulls where levels say). */
function copyPlainPage(bytes: Buffer, width: number, nullBytes: Buffer, row: number, pageRows: number, levels: Uint8Array | undefined, valueBytes: Uint8Array): void {
  if (levels === undefined) {
    assert(valueBytes.length >= pageRows * width, 'a PLAIN page without nulls holds a value per row');
    bytes.set(valueBytes.subarray(0, pageRows * width), row * width);
    return;
  }
  let source = 0;
  for (let k = 0; k < pageRows; k++) {
    const at = (row + k) * width;
    if (levels[k] === 0) {
      for (let b = 0; b < width; b++) bytes[at + b] = nullBytes[b];
      continue;
    }
    for (let b = 0; b < width; b++) bytes[at + b] = valueBytes[source + b];
    source += width;
  }
}

export function createVarSink(column: ChunkColumn, rowCount: number): ValueSink {
  const cells = new Array<Uint8Array | null>(rowCount).fill(null);
  const encoder = new TextEncoder();
  let totalBytes = 0;
  const put = (row: number, value: Scalar): void => {
    const cell = value instanceof Uint8Array ? value : typeof value === 'string' ? encoder.encode(value) : value === null || value === undefined ? null : encoder.encode(String(value));
    cells[row] = cell;
    if (cell !== null) totalBytes += cell.length;
  };
  return {
    putRun(row, values, from, count, dictionary) {
      assert(row + count <= rowCount, `a page run stays inside its row group (${column.element.name})`);
      for (let k = 0; k < count; k++) {
        put(row + k, runValue(values, from + k, dictionary));
      }
    },
    putNull(row) {
      cells[row] = null;
    },
    putPlainBytes() {
      return false;
    },
    finish() {
      const bytes = Buffer.allocUnsafe(totalBytes + 4 * rowCount);
      const offsets = new Float64Array(rowCount + 1);
      let position = 0;
      for (let row = 0; row < rowCount; row++) {
        offsets[row] = position;
        const cell = cells[row] ?? null;
        bytes.writeInt32LE(cell === null ? -1 : cell.length, position);
        position += 4;
        if (cell !== null) {
          bytes.set(cell, position);
          position += cell.length;
        }
      }
      offsets[rowCount] = position;
      return { kind: 'var', bytes: bytes.subarray(0, position), offsets };
    },
  };
}

/**
 * LONG256 and GEOHASH partitions hold the values' text (the Parquet writer's choice, so any reader sees what
 * QuestDB prints); the sink collects the text and encodes storage form at the end.
 */
function createTextCodedSink(type: ColumnType, rowCount: number): ValueSink {
  const texts = new Array<string | null>(rowCount).fill(null);
  return {
    putRun(row, values, from, count, dictionary) {
      assert(row + count <= rowCount && from + count <= values.length, 'a page run stays inside its row group and its values');
      for (let k = 0; k < count; k++) {
        const value = runValue(values, from + k, dictionary);
        const text = value instanceof Uint8Array ? utf8.decode(value) : typeof value === 'string' ? value : null;
        // The file holds the display text of this very type (binary digits for bit precisions), kept as it is.
        texts[row + k] = text === null || text.length === 0 ? null : text;
      }
    },
    putNull(row) {
      texts[row] = null;
    },
    putPlainBytes() {
      return false;
    },
    finish() {
      return { kind: 'fixed', width: storageWidthBytes(type), bytes: writeTextCoded(type, texts, rowCount) };
    },
  };
}

/**
 * DECIMAL partitions hold FIXED_LEN_BYTE_ARRAY big-endian two's complement (INT32/INT64 from other writers):
 * each value is sign-extended into the storage width, little-endian; nulls get the width's minimum.
 */
function createDecimalSink(rowCount: number, width: number): ValueSink {
  const bytes = Buffer.alloc(rowCount * width);
  for (let row = 0; row < rowCount; row++) writeDecimalUnscaled(bytes, row * width, width, null);
  return {
    putRun(row, values, from, count, dictionary) {
      assert(row + count <= rowCount && from + count <= values.length, 'a page run stays inside its row group and its values');
      for (let k = 0; k < count; k++) {
        writeDecimalUnscaled(bytes, (row + k) * width, width, unscaledOf(runValue(values, from + k, dictionary)));
      }
    },
    putNull(row) {
      writeDecimalUnscaled(bytes, row * width, width, null);
    },
    putPlainBytes() {
      return false;
    },
    finish() {
      return { kind: 'fixed', width, bytes };
    },
  };
}

function unscaledOf(value: Scalar): bigint | null {
  if (value instanceof Uint8Array) {
    let unscaled = 0n;
    for (let k = 0; k < value.length; k++) unscaled = (unscaled << 8n) | BigInt(value[k]);
    return value.length === 0 ? null : BigInt.asIntN(value.length * 8, unscaled);
  }
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number') return BigInt(Math.trunc(value));
  return null;
}
