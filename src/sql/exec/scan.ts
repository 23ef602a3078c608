// Table scan over a pinned TableSnapshot: batches of up to batchRowsMax rows per partition, with fixed-width
// columns as zero-copy typed-array views of the mapped files. 64-bit columns also get a number copy, made only
// when an operator reads `data` (many plans touch a timestamp only through `exact` or not at all).
// A scan may be limited to row ranges (interval pruning, tail limits) and may be read backwards (LATEST ON).
import { isArrayType } from '../../types/double-array.js';
import type { ColumnBatch, Vector } from './batch.js';
import type { Cursor, ExecContext, QueryFactory } from './operator.js';
import { indent } from './operator.js';
import type { OutputColumn } from '../bind/bound.js';
import type { TableSnapshot, ColumnView } from '../../storage/table-reader.js';
import type { ColumnType } from '../../types/column-type.js';
import { batchRowsMax } from '../../core/limits.js';
import { nullVector } from './vector-ops.js';
import type { TimestampInterval } from '../../types/intervals.js';
import { formatTimestamp } from '../../types/timestamp.js';
import { int64WordsToNumbers } from '../../types/int64-words.js';
import { assert } from '../../core/assert.js';
import { isTextCodedType, readTextCoded } from '../../types/coded-columns.js';
import { BatchPacer } from './batch-pacer.js';
import type { PartitionRange } from '../plan/plan-specs.js';
export type { PartitionRange };

export class TableScanFactory implements QueryFactory {
  readonly columns: readonly OutputColumn[];
  readonly timestampIndex: number;
  /** Batch rows a paced scan of this factory ended its latest run with; the next run starts there. */
  private pacedRows: number | undefined;

  /**
   * `columnIndexes` are table columns in scan-slot order; `ranges` limit the rows (all rows when undefined);
   * `intervals` are the timestamp intervals the ranges came from, for EXPLAIN.
   */
  constructor(
    readonly snapshot: TableSnapshot,
    readonly columnIndexes: readonly number[],
    readonly ranges?: readonly PartitionRange[],
    private readonly intervals?: readonly TimestampInterval[],
  ) {
    this.columns = columnIndexes.map((index) => {
      const column = snapshot.meta.columns[index];
      return { name: column?.name ?? '', type: column?.type ?? 'INT' };
    });
    this.timestampIndex = columnIndexes.indexOf(snapshot.meta.timestampIndex);
    snapshot.noteScan(this, columnIndexes, this.rowRanges());
  }

  /** The ranges this scan reads, in table order. */
  rowRanges(): readonly PartitionRange[] {
    const ranges = this.ranges ?? this.snapshot.partitions.map((partition, k) => ({ partitionIndex: k, lo: 0, hi: partition.entry.rowCount }));
    const slice = this.snapshot.rowSlice;
    return slice === undefined ? ranges : intersectRanges(ranges, slice);
  }

  /** Rows the scan returns, known without reading data. */
  rowCount(): number {
    if (this.ranges === undefined && this.snapshot.rowSlice === undefined) return this.snapshot.rowCount;
    let total = 0;
    for (const range of this.rowRanges()) total += range.hi - range.lo;
    return total;
  }

  /** The same scan over other rows; the new scan replaces this one in what the snapshot expects to be read. */
  withRanges(ranges: readonly PartitionRange[], intervals?: readonly TimestampInterval[]): TableScanFactory {
    this.snapshot.forgetScan(this);
    return new TableScanFactory(this.snapshot, this.columnIndexes, ranges, intervals ?? this.intervals);
  }

  /** The same scan restricted to its last `count` rows (LIMIT -n reads only the tail of sorted storage). */
  tail(count: number): TableScanFactory {
    const kept: PartitionRange[] = [];
    let needed = count;
    const ranges = this.rowRanges();
    for (let k = ranges.length - 1; k >= 0 && needed > 0; k--) {
      const range = ranges[k];
      const lo = Math.max(range.lo, range.hi - needed);
      if (range.hi > lo) kept.unshift({ partitionIndex: range.partitionIndex, lo, hi: range.hi });
      needed -= range.hi - lo;
    }
    this.snapshot.forgetScan(this);
    return new TableScanFactory(this.snapshot, this.columnIndexes, kept, this.intervals);
  }

  open(ctx: ExecContext): Cursor {
    return this.openDirection(ctx, false);
  }

  /** Batches from the newest rows to the oldest; rows inside each batch keep table order. */
  openBackward(ctx: ExecContext): Cursor {
    return this.openDirection(ctx, true);
  }

  private openDirection(ctx: ExecContext, backward: boolean): Cursor {
    this.snapshot.pinColumns(this.columnIndexes);
    const ranges = this.rowRanges();
    const snapshot = this.snapshot;
    const columnIndexes = this.columnIndexes;
    let rangeIndex = backward ? ranges.length - 1 : 0;
    let row = backward ? (ranges[rangeIndex]?.hi ?? 0) : (ranges[0]?.lo ?? 0);
    const pacer = snapshot.scanBatchRowsMin === undefined ? undefined : new BatchPacer(snapshot.scanBatchRowsMin, this.pacedRows);
    const notePace = (rows: number): void => {
      this.pacedRows = rows;
    };
    return {
      nextBatch(): ColumnBatch | undefined {
        while (rangeIndex >= 0 && rangeIndex < ranges.length) {
          const range = ranges[rangeIndex];
          assert(range.lo <= range.hi && range.hi <= (snapshot.partitions[range.partitionIndex]?.entry.rowCount ?? -1), 'scan ranges lie inside their partition');
          if (backward ? row <= range.lo : row >= range.hi) {
            rangeIndex += backward ? -1 : 1;
            row = backward ? (ranges[rangeIndex]?.hi ?? 0) : (ranges[rangeIndex]?.lo ?? 0);
            continue;
          }
          ctx.checkCancelled();
          const count = Math.min(pacer === undefined ? batchRowsMax : pacer.nextRows(), backward ? row - range.lo : range.hi - row);
          if (pacer !== undefined) notePace(pacer.currentRows);
          const start = backward ? row - count : row;
          const vectors = readVectors(snapshot, range.partitionIndex, columnIndexes, start, count);
          row = backward ? start : row + count;
          return { rowCount: count, vectors };
        }
        return undefined;
      },
      close(): void {},
    };
  }

  explain(depth: number): string[] {
    const name = this.snapshot.meta.name;
    if (this.intervals === undefined) return [indent(depth, `PageFrame Row forward scan on: ${name}`)];
    const text = this.intervals.map((range) => `(${boundText(range.lo)},${boundText(range.hi)})`).join(',');
    return [indent(depth, `PageFrame Interval forward scan on: ${name}`), indent(depth + 1, `intervals: [${text}]`)];
  }
}

/** The parts of `ranges` inside `slice`; both are in table order, so the result is too. */
function intersectRanges(ranges: readonly PartitionRange[], slice: readonly PartitionRange[]): PartitionRange[] {
  const kept: PartitionRange[] = [];
  for (const range of ranges) {
    for (const part of slice) {
      if (part.partitionIndex !== range.partitionIndex) continue;
      const lo = Math.max(range.lo, part.lo);
      const hi = Math.min(range.hi, part.hi);
      if (hi > lo) kept.push({ partitionIndex: range.partitionIndex, lo, hi });
    }
  }
  return kept;
}

function boundText(micros: number): string {
  if (micros === -Infinity) return '"MIN"';
  if (micros === Infinity) return '"MAX"';
  return `"${formatTimestamp(micros)}"`;
}

/**
 * The batch's columns. A cold partition whose chunks the statement has not fetched asks for the chunks of every
 * column of the batch at once (ColdChunksNeeded per column would cost one fetch round each).
 */
function readVectors(snapshot: TableSnapshot, partitionIndex: number, columnIndexes: readonly number[], start: number, count: number): Vector[] {
  try {
    return columnIndexes.map((column) => readVector(snapshot, partitionIndex, column, start, count));
  } catch (error) {
    throw snapshot.coldNeedsOfRows(error, partitionIndex, columnIndexes, start, start + count);
  }
}

function readVector(snapshot: TableSnapshot, partitionIndex: number, columnIndex: number, start: number, count: number): Vector {
  const type = snapshot.meta.columns[columnIndex]?.type;
  const view = snapshot.column(partitionIndex, columnIndex, start, start + count);
  if (view.kind === 'absent') return nullVector(type, count);
  if (view.kind === 'var') return readVarVector(view, type, start, count);
  const bytes = view.bytes;
  const base = bytes.byteOffset;
  if (isTextCodedType(type)) return { type, data: readTextCoded(type, bytes, start, count) };
  switch (type) {
    case 'DOUBLE': return { type, data: new Float64Array(bytes.buffer, base + start * 8, count) };
    case 'FLOAT': return { type, data: new Float32Array(bytes.buffer, base + start * 4, count) };
    case 'INT': case 'IPV4': return { type, data: new Int32Array(bytes.buffer, base + start * 4, count) };
    case 'SYMBOL': return { type, data: new Int32Array(bytes.buffer, base + start * 4, count), symbols: snapshot.symbols(columnIndex) };
    case 'SHORT': return { type, data: new Int16Array(bytes.buffer, base + start * 2, count) };
    case 'CHAR': return { type, data: new Uint16Array(bytes.buffer, base + start * 2, count) };
    case 'BYTE': case 'BOOLEAN': return { type, data: new Int8Array(bytes.buffer, base + start, count) };
    case 'LONG': case 'DATE': case 'TIMESTAMP': case 'TIMESTAMP_NS': return readInt64Vector(type, bytes, start, count);
    default: return nullVector(type, count);
  }
}

/**
 * 64-bit values: the exact view over the mapped file, and numbers (exact within ±2^53, NaN for null) computed
 * on first read of `data`. The getter is an own enumerable property, so copies made with spread still carry data.
 */
function readInt64Vector(type: ColumnType, bytes: Buffer, start: number, count: number): Vector {
  let numbers: Float64Array | undefined;
  return {
    type,
    exact: new BigInt64Array(bytes.buffer, bytes.byteOffset + start * 8, count),
    get data(): Float64Array {
      numbers ??= int64WordsToNumbers(new Int32Array(bytes.buffer, bytes.byteOffset + start * 8, count * 2), count);
      return numbers;
    },
  };
}

function readVarVector(view: Extract<ColumnView, { kind: 'var' }>, type: ColumnType, start: number, count: number): Vector {
  const index = new Int32Array(view.index.buffer, view.index.byteOffset, view.index.length / 4);
  const data = view.data;
  if (type === 'BINARY' || isArrayType(type)) {
    // Plain Uint8Array views: cheaper to make per row than Buffer.subarray, and all a value reader needs.
    const values = new Array<Uint8Array | null>(count);
    for (let k = 0; k < count; k++) {
      const offset = index[2 * (start + k) + 1] * 4294967296 + (index[2 * (start + k)] >>> 0);
      const length = data.readInt32LE(offset);
      values[k] = length < 0 ? null : new Uint8Array(data.buffer, data.byteOffset + offset + 4, length);
    }
    return { type, data: values };
  }
  const values = new Array<string | null>(count);
  for (let k = 0; k < count; k++) {
    const offset = index[2 * (start + k) + 1] * 4294967296 + (index[2 * (start + k)] >>> 0);
    const length = data.readInt32LE(offset);
    values[k] = length < 0 ? null : data.toString('utf8', offset + 4, offset + 4 + length);
  }
  return { type, data: values };
}
