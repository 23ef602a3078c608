// Growable column buffers that ILP lines are parsed straight into, in storage form: fixed-width values
// little-endian (the same bytes as a <column>.d file), text as [int32 length][utf8] records with row offsets.
// A builder always holds exactly `rowCount` committed values plus at most the current row's value; a row that
// turns out incomplete (the rest of it is in the next network chunk) is cut off again with truncate().
// Buffers come from a pool (builder-memory.ts) and go back to it with release() once the rows are staged.
import { assert } from '../core/assert.js';
import type { ColumnType } from '../types/column-type.js';
import { storageWidthBytes } from '../types/column-type.js';
import type { ColumnData, VarColumnData } from '../storage/row-chunk.js';
import { isArrayType } from '../types/double-array.js';
import type { ArrayBufferPool } from '../core/array-buffer-pool.js';
import { builderMemory } from './builder-memory.js';

const INITIAL_ROWS = 256;
const INITIAL_TEXT_BYTES = 4096;

/** Fixed-width values of one column, with typed views of the same bytes for the hot writes. */
export class FixedColumnBuilder {
  readonly kind = 'fixed';
  readonly width: number;
  bytes: Uint8Array = new Uint8Array(0);
  f64: Float64Array = new Float64Array(0);
  f32: Float32Array = new Float32Array(0);
  i32: Int32Array = new Int32Array(0);
  i16: Int16Array = new Int16Array(0);
  /** Values written so far (committed rows plus the current row's value, if set). */
  length = 0;

  constructor(readonly type: ColumnType, rows: number = INITIAL_ROWS, private readonly memory: ArrayBufferPool = builderMemory) {
    this.width = storageWidthBytes(type);
    assert(this.width > 0, 'a fixed column builder holds a fixed-width type');
    this.adopt(memory.take(Math.max(rows, INITIAL_ROWS) * this.width));
  }

  /** Makes room for one more value; returns its index. */
  next(): number {
    if ((this.length + 1) * this.width > this.bytes.length) this.grow();
    return this.length++;
  }

  private grow(): void {
    const buffer = this.memory.take(Math.max(this.bytes.length * 2, (this.length + 1) * this.width));
    new Uint8Array(buffer).set(this.bytes.subarray(0, this.length * this.width));
    const old = this.bytes.buffer;
    this.adopt(buffer);
    this.memory.give(old);
  }

  private adopt(buffer: ArrayBuffer): void {
    this.bytes = new Uint8Array(buffer);
    this.f64 = new Float64Array(buffer, 0, buffer.byteLength >> 3);
    this.f32 = new Float32Array(buffer, 0, buffer.byteLength >> 2);
    this.i32 = new Int32Array(buffer, 0, buffer.byteLength >> 2);
    this.i16 = new Int16Array(buffer, 0, buffer.byteLength >> 1);
  }

  /** Gives the buffer back to the pool: the rows were staged and nothing reads them again. Safe to repeat. */
  release(): void {
    const old = this.bytes.buffer;
    this.adopt(new ArrayBuffer(0));
    this.length = 0;
    this.memory.give(old);
  }

  truncate(rows: number): void {
    assert(rows <= this.length, 'truncate only shortens a column');
    this.length = rows;
  }

  /** Appends the type's null sentinel. */
  appendNull(): void {
    const index = this.next();
    writeFixedNull(this, index);
  }

  sizeBytes(): number {
    return this.length * this.width;
  }

  toColumnData(): ColumnData {
    return { kind: 'fixed', width: this.width, bytes: Buffer.from(this.bytes.buffer, 0, this.length * this.width) };
  }
}

/** The null of each fixed-width type, as QuestDB stores it. BOOLEAN, BYTE and SHORT have none: 0 (false). */
function writeFixedNull(builder: FixedColumnBuilder, index: number): void {
  switch (builder.type) {
    case 'INT': builder.i32[index] = -2147483648; return;
    case 'LONG': case 'DATE': case 'TIMESTAMP': case 'TIMESTAMP_NS':
      builder.i32[index * 2] = 0;
      builder.i32[index * 2 + 1] = -2147483648;
      return;
    case 'DOUBLE': builder.f64[index] = NaN; return;
    case 'FLOAT': builder.f32[index] = NaN; return;
    default: builder.bytes.fill(0, index * builder.width, (index + 1) * builder.width);
  }
}

/** Variable-size values (VARCHAR, STRING, arrays, and text-coded types before their encoding): length-prefixed records. */
export class VarColumnBuilder {
  readonly kind = 'var';
  bytes: Buffer;
  /** Start of each record; offsets[length] is the end of the last one. */
  offsets: Float64Array;
  length = 0;
  end = 0;

  /** Array records are padded to 8 bytes so their elements stay 8-byte aligned in the file (types/double-array.ts). */
  private readonly recordAlignBytes: number;

  constructor(readonly type: ColumnType, rows: number = INITIAL_ROWS, private readonly memory: ArrayBufferPool = builderMemory) {
    this.recordAlignBytes = isArrayType(type) ? 8 : 1;
    this.bytes = Buffer.from(memory.take(INITIAL_TEXT_BYTES));
    this.offsets = new Float64Array(memory.take((Math.max(rows, INITIAL_ROWS) + 1) * 8));
  }

  /** Reserves a record of `sizeBytes` payload bytes; returns where the payload starts. The length prefix is written. */
  reserve(sizeBytes: number): number {
    if (this.length + 2 > this.offsets.length) {
      const offsets = new Float64Array(this.memory.take(this.offsets.length * 2 * 8));
      offsets.set(this.offsets.subarray(0, this.length + 1));
      const old = this.offsets.buffer;
      this.offsets = offsets;
      this.memory.give(old);
    }
    const recordBytes = 4 + sizeBytes;
    const padding = (this.recordAlignBytes - (recordBytes % this.recordAlignBytes)) % this.recordAlignBytes;
    const needed = this.end + recordBytes + padding;
    if (needed > this.bytes.length) {
      const bytes = Buffer.from(this.memory.take(Math.max(needed, this.bytes.length * 2)));
      this.bytes.copy(bytes, 0, 0, this.end);
      const old = this.bytes.buffer;
      this.bytes = bytes;
      this.memory.give(old);
    }
    this.offsets[this.length] = this.end;
    this.bytes.writeInt32LE(sizeBytes, this.end);
    const payload = this.end + 4;
    this.bytes.fill(0, payload + sizeBytes, payload + sizeBytes + padding);
    this.end = payload + sizeBytes + padding;
    this.length++;
    this.offsets[this.length] = this.end;
    return payload;
  }

  /** Shrinks the last record to `sizeBytes` (an escaped value turned out shorter than its raw bytes). */
  shrinkLast(sizeBytes: number): void {
    const start = this.offsets[this.length - 1];
    this.bytes.writeInt32LE(sizeBytes, start);
    this.end = start + 4 + sizeBytes;
    this.offsets[this.length] = this.end;
  }

  appendNull(): void {
    const payload = this.reserve(0);
    this.bytes.writeInt32LE(-1, payload - 4);
  }

  truncate(rows: number): void {
    assert(rows <= this.length, 'truncate only shortens a column');
    this.length = rows;
    this.end = this.offsets[rows];
  }

  sizeBytes(): number {
    return this.end + (this.length + 1) * 8;
  }

  toColumnData(): VarColumnData {
    return { kind: 'var', bytes: this.bytes.subarray(0, this.end), offsets: this.offsets.slice(0, this.length + 1) };
  }

  /** Gives the buffers back to the pool (see FixedColumnBuilder.release). Safe to repeat. */
  release(): void {
    const oldBytes = this.bytes.buffer;
    const oldOffsets = this.offsets.buffer;
    // An ArrayBuffer of its own: Buffer.alloc() may hand out a view of Node's shared slab, which must never reach the pool.
    this.bytes = Buffer.from(new ArrayBuffer(0));
    this.offsets = new Float64Array(1);
    this.length = 0;
    this.end = 0;
    this.memory.give(oldBytes);
    this.memory.give(oldOffsets);
  }
}
