// Turns one column buffer of a row group into what its pages are cut from: the non-null values in PLAIN
// (or dictionary) form, the definition level of every row, and min/max in Parquet's column order.
// Fixed-width columns without nulls are handed on as views of the buffer, never copied.
import { assert, assertNever } from '../core/assert.js';
import { SYMBOL_NULL_KEY } from '../types/nulls.js';
import type { ColumnBuffer, SymbolBuffer } from './parquet-column-buffer.js';

export type ChunkValues =
  | { readonly layout: 'fixed'; readonly bytes: Uint8Array; readonly width: number }
  /** BYTE_ARRAY PLAIN records ([int32 length][bytes]); value i spans offsets[i] .. offsets[i + 1]. */
  | { readonly layout: 'variable'; readonly bytes: Uint8Array; readonly offsets: Int32Array }
  /** BOOLEAN, one 0/1 per value, bit-packed per page. */
  | { readonly layout: 'bits'; readonly values: Uint8Array }
  | DictionaryValues;

export interface DictionaryValues {
  readonly layout: 'dictionary';
  readonly indices: Int32Array;
  readonly bitWidth: number;
  /** The distinct values as PLAIN BYTE_ARRAY records, in index order. */
  readonly dictionary: Extract<ChunkValues, { layout: 'variable' }>;
}

export type StatValue = number | bigint | boolean | Uint8Array;

export interface PreparedChunk {
  readonly rows: number;
  readonly values: ChunkValues;
  /** Definition level (0 null, 1 present) per row; undefined when no row is null. */
  readonly defined: Uint8Array | undefined;
  readonly nullCount: number;
  readonly min: StatValue | undefined;
  readonly max: StatValue | undefined;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
assert(LITTLE_ENDIAN, 'Parquet PLAIN values are little-endian and are taken straight from typed arrays');

export function prepareChunk(buffer: ColumnBuffer, rows: number): PreparedChunk {
  switch (buffer.kind) {
    case 'f64': return prepareFloats(buffer.values, rows, 8);
    case 'f32': return prepareFloats(buffer.values, rows, 4);
    case 'i64': return prepareInt64(buffer.words, rows);
    case 'i32': return prepareInt32(buffer.values, rows, buffer.nullValue, buffer.unsigned);
    case 'bool': return prepareBooleans(buffer.values, rows);
    case 'bytes': return prepareByteArrays(buffer.values, rows);
    case 'symbol': return prepareSymbols(buffer, rows);
    case 'uuid': return prepareUuids(buffer.bytes, buffer.present, rows);
    case 'decimal': return prepareFixedWithoutBounds(buffer.bytes, buffer.present, rows, buffer.width);
    default: return assertNever(buffer, 'column buffer');
  }
}

function bytesOf(array: Float64Array | Float32Array | Int32Array, count: number): Uint8Array {
  return new Uint8Array(array.buffer, array.byteOffset, count * array.BYTES_PER_ELEMENT);
}

/** NaN is QuestDB's null for FLOAT and DOUBLE; ±0 bounds are widened to -0 / +0 as the Parquet spec asks. */
function prepareFloats(values: Float64Array | Float32Array, rows: number, width: number): PreparedChunk {
  let nulls = 0;
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < rows; i++) {
    const v = values[i];
    if (v !== v) nulls++;
    else {
      if (v < min) min = v;
      if (v > max) max = v;
    }
  }
  const hasValue = nulls < rows;
  const bounds = { min: hasValue ? (min === 0 ? -0 : min) : undefined, max: hasValue ? (max === 0 ? 0 : max) : undefined };
  if (nulls === 0) return { rows, values: { layout: 'fixed', bytes: bytesOf(values, rows), width }, defined: undefined, nullCount: 0, ...bounds };
  const defined = new Uint8Array(rows);
  const compact = values instanceof Float64Array ? new Float64Array(rows - nulls) : new Float32Array(rows - nulls);
  for (let i = 0, n = 0; i < rows; i++) {
    const v = values[i];
    if (v === v) {
      defined[i] = 1;
      compact[n++] = v;
    }
  }
  return { rows, values: { layout: 'fixed', bytes: bytesOf(compact, compact.length), width }, defined, nullCount: nulls, ...bounds };
}

/** Long.MIN_VALUE (lo 0, hi 0x80000000) is the null; comparisons run on the signed high and unsigned low word. */
function prepareInt64(words: Int32Array, rows: number): PreparedChunk {
  let nulls = 0;
  let minAt = -1;
  let maxAt = -1;
  for (let i = 0; i < rows; i++) {
    const lo = words[2 * i];
    const hi = words[2 * i + 1];
    if (hi === -2147483648 && lo === 0) {
      nulls++;
      continue;
    }
    if (minAt < 0 || hi < words[2 * minAt + 1] || (hi === words[2 * minAt + 1] && lo >>> 0 < words[2 * minAt] >>> 0)) minAt = i;
    if (maxAt < 0 || hi > words[2 * maxAt + 1] || (hi === words[2 * maxAt + 1] && lo >>> 0 > words[2 * maxAt] >>> 0)) maxAt = i;
  }
  const bounds = { min: minAt < 0 ? undefined : int64At(words, minAt), max: maxAt < 0 ? undefined : int64At(words, maxAt) };
  if (nulls === 0) return { rows, values: { layout: 'fixed', bytes: bytesOf(words, rows * 2), width: 8 }, defined: undefined, nullCount: 0, ...bounds };
  const defined = new Uint8Array(rows);
  const compact = new Int32Array((rows - nulls) * 2);
  for (let i = 0, n = 0; i < rows; i++) {
    const lo = words[2 * i];
    const hi = words[2 * i + 1];
    if (hi === -2147483648 && lo === 0) continue;
    defined[i] = 1;
    compact[n++] = lo;
    compact[n++] = hi;
  }
  return { rows, values: { layout: 'fixed', bytes: bytesOf(compact, compact.length), width: 8 }, defined, nullCount: nulls, ...bounds };
}

function int64At(words: Int32Array, index: number): bigint {
  return (BigInt(words[2 * index + 1]) << 32n) | BigInt(words[2 * index] >>> 0);
}

/** IPv4 is written as an unsigned 32-bit integer, so its bounds compare unsigned. */
function prepareInt32(values: Int32Array, rows: number, nullValue: number | undefined, unsigned: boolean): PreparedChunk {
  let nulls = 0;
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < rows; i++) {
    const raw = values[i];
    if (raw === nullValue) {
      nulls++;
      continue;
    }
    const v = unsigned ? raw >>> 0 : raw;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  const bounds = nulls < rows ? { min, max } : { min: undefined, max: undefined };
  if (nulls === 0) return { rows, values: { layout: 'fixed', bytes: bytesOf(values, rows), width: 4 }, defined: undefined, nullCount: 0, ...bounds };
  const defined = new Uint8Array(rows);
  const compact = new Int32Array(rows - nulls);
  for (let i = 0, n = 0; i < rows; i++) {
    if (values[i] === nullValue) continue;
    defined[i] = 1;
    compact[n++] = values[i];
  }
  return { rows, values: { layout: 'fixed', bytes: bytesOf(compact, compact.length), width: 4 }, defined, nullCount: nulls, ...bounds };
}

/** BOOLEAN has no null in QuestDB. */
function prepareBooleans(values: Uint8Array, rows: number): PreparedChunk {
  let trues = 0;
  for (let i = 0; i < rows; i++) trues += values[i];
  return { rows, values: { layout: 'bits', values: values.subarray(0, rows) }, defined: undefined, nullCount: 0, min: trues === rows ? true : false, max: trues > 0 };
}

function prepareByteArrays(values: readonly (string | Uint8Array | null)[], rows: number): PreparedChunk {
  let nulls = 0;
  for (let i = 0; i < rows; i++) if (values[i] === null) nulls++;
  const defined = nulls === 0 ? undefined : new Uint8Array(rows);
  const records = new ByteArrayRecords(rows - nulls, rows * 8);
  for (let i = 0; i < rows; i++) {
    const value = values[i];
    if (value === null) continue;
    if (defined !== undefined) defined[i] = 1;
    records.add(value);
  }
  const plain = records.finish();
  return { rows, values: plain, defined, nullCount: nulls, ...byteArrayBounds(plain, 0, plain.offsets.length - 1) };
}

/**
 * The group's keys become indices into a chunk dictionary holding only the symbols the chunk uses. The key →
 * index map is an array over the symbol table, unless the table is much larger than the group (then a Map, so
 * a table of millions of symbols does not cost an allocation of its size per row group).
 */
function prepareSymbols(buffer: SymbolBuffer, rows: number): PreparedChunk {
  const keys = buffer.keys;
  const dense = buffer.symbols.length <= rows * 4 ? new Int32Array(buffer.symbols.length).fill(-1) : undefined;
  const sparse = dense === undefined ? new Map<number, number>() : undefined;
  const used: string[] = [];
  let nulls = 0;
  for (let i = 0; i < rows; i++) if (keys[i] === SYMBOL_NULL_KEY) nulls++;
  const defined = nulls === 0 ? undefined : new Uint8Array(rows);
  const indices = new Int32Array(rows - nulls);
  for (let i = 0, n = 0; i < rows; i++) {
    const key = keys[i];
    if (key === SYMBOL_NULL_KEY) continue;
    if (defined !== undefined) defined[i] = 1;
    let index = dense !== undefined ? dense[key] : sparse?.get(key) ?? -1;
    if (index < 0) {
      assert(key < buffer.symbols.length, 'SYMBOL keys index into their symbol table');
      index = used.length;
      if (dense !== undefined) dense[key] = index;
      else sparse?.set(key, index);
      used.push(buffer.symbols[key]);
    }
    indices[n++] = index;
  }
  const records = new ByteArrayRecords(used.length, used.length * 16);
  for (const text of used) records.add(text);
  const dictionary = records.finish();
  const bitWidth = Math.max(1, Math.ceil(Math.log2(used.length)));
  const values: DictionaryValues = { layout: 'dictionary', indices, bitWidth, dictionary };
  return { rows, values, defined, nullCount: nulls, ...byteArrayBounds(dictionary, 0, used.length) };
}

function prepareUuids(bytes: Uint8Array, present: Uint8Array, rows: number): PreparedChunk {
  let nulls = 0;
  for (let i = 0; i < rows; i++) if (present[i] === 0) nulls++;
  const compact = nulls === 0 ? bytes.subarray(0, rows * 16) : new Uint8Array((rows - nulls) * 16);
  if (nulls > 0) {
    for (let i = 0, n = 0; i < rows; i++) if (present[i] === 1) compact.set(bytes.subarray(i * 16, i * 16 + 16), 16 * n++);
  }
  let minAt = -1;
  let maxAt = -1;
  const view = Buffer.from(compact.buffer, compact.byteOffset, compact.length);
  for (let n = 0; n < rows - nulls; n++) {
    // buffer.compare(target, tStart, tEnd, sStart, sEnd) orders the source range against the target range.
    if (minAt < 0 || view.compare(view, minAt * 16, minAt * 16 + 16, n * 16, n * 16 + 16) < 0) minAt = n;
    if (maxAt < 0 || view.compare(view, maxAt * 16, maxAt * 16 + 16, n * 16, n * 16 + 16) > 0) maxAt = n;
  }
  const defined = nulls === 0 ? undefined : present.slice(0, rows);
  const min = minAt < 0 ? undefined : compact.slice(minAt * 16, minAt * 16 + 16);
  const max = maxAt < 0 ? undefined : compact.slice(maxAt * 16, maxAt * 16 + 16);
  return { rows, values: { layout: 'fixed', bytes: compact, width: 16 }, defined, nullCount: nulls, min, max };
}

/**
 * DECIMAL records: Parquet orders them as signed numbers, which the unsigned byte order of the other fixed-width
 * columns would get wrong, so no min/max is written (readers then never skip a group by its bounds).
 */
function prepareFixedWithoutBounds(bytes: Uint8Array, present: Uint8Array, rows: number, width: number): PreparedChunk {
  let nulls = 0;
  for (let i = 0; i < rows; i++) if (present[i] === 0) nulls++;
  const compact = nulls === 0 ? bytes.subarray(0, rows * width) : new Uint8Array((rows - nulls) * width);
  if (nulls > 0) {
    for (let i = 0, n = 0; i < rows; i++) if (present[i] === 1) compact.set(bytes.subarray(i * width, i * width + width), width * n++);
  }
  const defined = nulls === 0 ? undefined : present.slice(0, rows);
  return { rows, values: { layout: 'fixed', bytes: compact, width }, defined, nullCount: nulls, min: undefined, max: undefined };
}

/** Unsigned byte-wise min and max of records [from, to), the order Parquet defines for UTF8 and binary. */
function byteArrayBounds(plain: { bytes: Uint8Array; offsets: Int32Array }, from: number, to: number): { min: Uint8Array | undefined; max: Uint8Array | undefined } {
  const view = Buffer.from(plain.bytes.buffer, plain.bytes.byteOffset, plain.bytes.length);
  const offsets = plain.offsets;
  let minAt = -1;
  let maxAt = -1;
  for (let i = from; i < to; i++) {
    const start = offsets[i] + 4;
    const end = offsets[i + 1];
    if (minAt < 0 || view.compare(view, offsets[minAt] + 4, offsets[minAt + 1], start, end) < 0) minAt = i;
    if (maxAt < 0 || view.compare(view, offsets[maxAt] + 4, offsets[maxAt + 1], start, end) > 0) maxAt = i;
  }
  return {
    min: minAt < 0 ? undefined : plain.bytes.slice(offsets[minAt] + 4, offsets[minAt + 1]),
    max: maxAt < 0 ? undefined : plain.bytes.slice(offsets[maxAt] + 4, offsets[maxAt + 1]),
  };
}

/** Appends PLAIN BYTE_ARRAY records into one growing buffer; strings are written as UTF-8 in place. */
class ByteArrayRecords {
  private bytes: Buffer;
  private readonly offsets: Int32Array;
  private count = 0;
  private end = 0;

  constructor(valueCount: number, bytesHint: number) {
    this.bytes = Buffer.allocUnsafe(Math.max(64, bytesHint));
    this.offsets = new Int32Array(valueCount + 1);
  }

  add(value: string | Uint8Array): void {
    // A UTF-16 code unit never takes more than 3 UTF-8 bytes.
    const most = typeof value === 'string' ? value.length * 3 : value.length;
    if (this.end + 4 + most > this.bytes.length) this.grow(this.end + 4 + most);
    const start = this.end;
    const size = typeof value === 'string' ? this.bytes.write(value, start + 4, 'utf8') : this.copy(value, start + 4);
    this.bytes.writeInt32LE(size, start);
    this.end = start + 4 + size;
    this.offsets[++this.count] = this.end;
  }

  finish(): { layout: 'variable'; bytes: Uint8Array; offsets: Int32Array } {
    assert(this.count === this.offsets.length - 1, 'every counted value was added as a record');
    return { layout: 'variable', bytes: this.bytes.subarray(0, this.end), offsets: this.offsets };
  }

  private copy(value: Uint8Array, at: number): number {
    this.bytes.set(value, at);
    return value.length;
  }

  private grow(needed: number): void {
    const next = Buffer.allocUnsafe(Math.max(needed, this.bytes.length * 2));
    this.bytes.copy(next, 0, 0, this.end);
    this.bytes = next;
  }
}
