// Builds the row chunks an import emits, in storage form: parsers write into a set of column buffers, and a
// finished chunk is a view of that set. The consumer may keep it; the set is reused only after the consumer
// releases it (a parse thread does once the chunk is written to staging), else the next batch gets new buffers. Also null filling for table columns the file does not
// have, and in-place removal of rejected rows (atomicity=skipRow, or a bad designated timestamp).
import { assert } from '../core/assert.js';
import type { ColumnType } from '../types/column-type.js';
import { storageWidthBytes } from '../types/column-type.js';
import { INT_NULL } from '../types/nulls.js';
import { batchRowsMax } from '../core/limits.js';
import type { ColumnData, RowChunk } from '../storage/row-chunk.js';
import { isStagedAsText } from '../storage/staging-segment.js';
import { TextRecords, type ColumnTarget, type TargetData } from './column-target.js';

/** Initial bytes per row of a text column; the records grow by doubling when values are longer. */
const TEXT_BYTES_PER_ROW_GUESS = 16;

interface MutableTarget extends ColumnTarget {
  data: TargetData;
}

function allocateTarget(type: ColumnType, capacity: number): TargetData {
  // SYMBOL keys belong to the table's dictionary and UUIDs are converted at commit: both travel as text.
  if (isStagedAsText(type)) return new TextRecords(capacity, TEXT_BYTES_PER_ROW_GUESS);
  switch (type) {
    case 'DOUBLE': return new Float64Array(capacity);
    case 'FLOAT': return new Float32Array(capacity);
    case 'INT': case 'IPV4': return new Int32Array(capacity);
    case 'LONG': case 'DATE': case 'TIMESTAMP': case 'TIMESTAMP_NS': return new Int32Array(capacity * 2);
    case 'SHORT': return new Int16Array(capacity);
    case 'CHAR': return new Uint16Array(capacity);
    default: return new Int8Array(capacity);
  }
}

/** Released target sets a builder keeps for reuse; more are left to the garbage collector. */
const SPARE_SETS_MAX = 8;

/** A finished chunk and how to hand its buffers back once nothing reads them any more. */
export interface BuiltChunk {
  readonly chunk: RowChunk;
  readonly release: () => void;
}

export class BatchBuilder {
  readonly types: ReadonlyArray<ColumnType>;
  readonly capacity: number;
  /** The buffers of the batch being built, one per column. */
  targets: MutableTarget[];
  rowCount = 0;
  private readonly spareSets: MutableTarget[][] = [];

  constructor(types: ReadonlyArray<ColumnType>, capacity: number) {
    assert(capacity >= 1 && capacity <= batchRowsMax, `batch capacity ${capacity} must lie in [1, batchRowsMax]`);
    this.types = types;
    this.capacity = capacity;
    this.targets = this.allocateSet();
  }

  /** Starts a new batch (build has already switched to a free set of buffers). */
  begin(): void {
    this.rowCount = 0;
  }

  private allocateSet(): MutableTarget[] {
    return this.types.map((type) => ({ data: allocateTarget(type, this.capacity) }));
  }

  remaining(): number {
    return this.capacity - this.rowCount;
  }

  /** Writes nulls into rows [base, base + count) of column col (a table column the file does not supply). */
  fillNull(col: number, base: number, count: number): void {
    const data = this.targets[col].data;
    const type = this.types[col];
    const end = base + count;
    if (data instanceof TextRecords) {
      let position = data.offsets[base];
      const bytes = data.reserve(position, count * 4);
      for (let r = base; r < end; r++) {
        bytes.writeInt32LE(-1, position);
        position += 4;
        data.offsets[r + 1] = position;
      }
    } else if (data instanceof Float64Array || data instanceof Float32Array) {
      data.fill(NaN, base, end);
    } else if (type === 'LONG' || type === 'DATE' || type === 'TIMESTAMP' || type === 'TIMESTAMP_NS') {
      const words = data as Int32Array;
      for (let r = base; r < end; r++) {
        words[r * 2] = 0;
        words[r * 2 + 1] = -2147483648;
      }
    } else {
      data.fill(type === 'INT' ? INT_NULL : 0, base, end);
    }
  }

  /**
   * Drops rows of [base, base + count) whose rowBad flag (indexed from base) is set, moving later rows down.
   * Returns how many rows were kept.
   */
  compact(base: number, count: number, rowBad: Uint8Array): number {
    let kept = 0;
    this.targets.forEach((target, c) => {
      const data = target.data;
      kept = data instanceof TextRecords ? compactRecords(data, base, count, rowBad)
        : compactFixed(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), storageWidthBytes(this.types[c]), base, count, rowBad);
    });
    return kept;
  }

  /** The finished chunk, a view of rows [0, rowCount) of the current buffers; later batches use other buffers. */
  build(): BuiltChunk {
    const rowCount = this.rowCount;
    const set = this.targets;
    const columns = set.map((target, c): ColumnData => {
      const data = target.data;
      if (data instanceof TextRecords) {
        const offsets = data.offsets.subarray(0, rowCount + 1);
        return { kind: 'var', bytes: data.bytes.subarray(0, offsets[rowCount]), offsets };
      }
      const width = storageWidthBytes(this.types[c]);
      assert(width > 0 && data.byteLength >= rowCount * width, 'a fixed-width target holds width bytes per row');
      return { kind: 'fixed', width, bytes: Buffer.from(data.buffer, data.byteOffset, rowCount * width) };
    });
    this.targets = this.spareSets.pop() ?? this.allocateSet();
    let released = false;
    const release = (): void => {
      if (released || this.spareSets.length >= SPARE_SETS_MAX) return;
      released = true;
      this.spareSets.push(set);
    };
    return { chunk: { rowCount, columns }, release };
  }
}

function compactFixed(bytes: Uint8Array, width: number, base: number, count: number, rowBad: Uint8Array): number {
  let write = base;
  for (let r = 0; r < count; r++) {
    if (rowBad[r] !== 0) continue;
    if (write !== base + r) bytes.copyWithin(write * width, (base + r) * width, (base + r + 1) * width);
    write++;
  }
  return write - base;
}

function compactRecords(records: TextRecords, base: number, count: number, rowBad: Uint8Array): number {
  const offsets = records.offsets;
  let write = base;
  let position = offsets[base];
  let start = offsets[base];
  for (let r = 0; r < count; r++) {
    // Read the record's end before offsets[write + 1] (at or before it) is overwritten.
    const end = offsets[base + r + 1];
    if (rowBad[r] === 0) {
      if (position !== start) records.bytes.copyWithin(position, start, end);
      position += end - start;
      offsets[write + 1] = position;
      write++;
    }
    start = end;
  }
  return write - base;
}
