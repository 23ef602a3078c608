// Table scan over a pinned TableSnapshot: batches of up to batchRowsMax rows per partition, with fixed-width
// columns as zero-copy typed-array views of the mapped files. 64-bit columns also get a number copy.
import type { ColumnBatch, Vector } from './batch.js';
import type { Cursor, ExecContext, QueryFactory } from './operator.js';
import { indent } from './operator.js';
import type { OutputColumn } from '../bind/bound.js';
import type { TableSnapshot, ColumnView } from '../../storage/table-reader.js';
import type { ColumnType } from '../../types/column-type.js';
import { batchRowsMax } from '../../core/limits.js';
import { nullVector } from './vector-ops.js';
import { uuidFromBytes } from '../../types/uuid-ipv4.js';

/** Rows [lo, hi) of one partition to scan (binary-searched from intervals by the optimizer). */
export interface PartitionRange {
  readonly partitionIndex: number;
  readonly lo: number;
  readonly hi: number;
}

export class TableScanFactory implements QueryFactory {
  readonly columns: readonly OutputColumn[];
  readonly timestampIndex: number;

  constructor(private readonly snapshot: TableSnapshot, private readonly columnIndexes: readonly number[], private readonly ranges?: readonly PartitionRange[]) {
    this.columns = columnIndexes.map((index) => {
      const column = snapshot.meta.columns[index];
      return { name: column?.name ?? '', type: column?.type ?? 'INT' };
    });
    this.timestampIndex = columnIndexes.indexOf(snapshot.meta.timestampIndex);
  }

  open(ctx: ExecContext): Cursor {
    this.snapshot.pinColumns(this.columnIndexes);
    const ranges = this.ranges ?? this.snapshot.partitions.map((partition, k) => ({ partitionIndex: k, lo: 0, hi: partition.entry.rowCount }));
    let rangeIndex = 0;
    let row = ranges[0]?.lo ?? 0;
    const snapshot = this.snapshot;
    const columnIndexes = this.columnIndexes;
    return {
      nextBatch(): ColumnBatch | undefined {
        while (rangeIndex < ranges.length) {
          const range = ranges[rangeIndex] as PartitionRange;
          if (row >= range.hi) {
            rangeIndex++;
            row = ranges[rangeIndex]?.lo ?? 0;
            continue;
          }
          ctx.checkCancelled();
          const count = Math.min(batchRowsMax, range.hi - row);
          const vectors = columnIndexes.map((column) => readVector(snapshot, range.partitionIndex, column, row, count));
          row += count;
          return { rowCount: count, vectors };
        }
        return undefined;
      },
      close(): void {},
    };
  }

  explain(depth: number): string[] {
    return [indent(depth, `PageFrame Row forward scan on: ${this.snapshot.meta.name}`)];
  }
}

function readVector(snapshot: TableSnapshot, partitionIndex: number, columnIndex: number, start: number, count: number): Vector {
  const type = snapshot.meta.columns[columnIndex]?.type as ColumnType;
  const view = snapshot.column(partitionIndex, columnIndex);
  if (view.kind === 'absent') return nullVector(type, count);
  if (view.kind === 'var') return readVarVector(view, type, start, count);
  const bytes = view.bytes;
  const base = bytes.byteOffset;
  switch (type) {
    case 'DOUBLE': return { type, data: new Float64Array(bytes.buffer, base + start * 8, count) };
    case 'FLOAT': return { type, data: new Float32Array(bytes.buffer, base + start * 4, count) };
    case 'INT': case 'IPV4': return { type, data: new Int32Array(bytes.buffer, base + start * 4, count) };
    case 'SYMBOL': return { type, data: new Int32Array(bytes.buffer, base + start * 4, count), symbols: snapshot.symbols(columnIndex) };
    case 'SHORT': return { type, data: new Int16Array(bytes.buffer, base + start * 2, count) };
    case 'CHAR': return { type, data: new Uint16Array(bytes.buffer, base + start * 2, count) };
    case 'BYTE': case 'BOOLEAN': return { type, data: new Int8Array(bytes.buffer, base + start, count) };
    case 'LONG': case 'DATE': case 'TIMESTAMP': return readInt64Vector(type, bytes, start, count);
    case 'UUID': return readUuidVector(bytes, start, count);
    default: return nullVector(type, count);
  }
}

/** 64-bit values as numbers (exact within ±2^53, NaN for null) plus the exact view. */
function readInt64Vector(type: ColumnType, bytes: Buffer, start: number, count: number): Vector {
  const words = new Int32Array(bytes.buffer, bytes.byteOffset + start * 8, count * 2);
  const numbers = new Float64Array(count);
  for (let k = 0; k < count; k++) {
    const hi = words[2 * k + 1] as number;
    const lo = words[2 * k] as number;
    numbers[k] = hi === -2147483648 && lo === 0 ? NaN : hi * 4294967296 + (lo >>> 0);
  }
  return { type, data: numbers, exact: new BigInt64Array(bytes.buffer, bytes.byteOffset + start * 8, count) };
}

function readUuidVector(bytes: Buffer, start: number, count: number): Vector {
  const values = new Array<string | null>(count);
  for (let k = 0; k < count; k++) values[k] = uuidFromBytes(bytes, (start + k) * 16);
  return { type: 'UUID', data: values };
}

function readVarVector(view: Extract<ColumnView, { kind: 'var' }>, type: ColumnType, start: number, count: number): Vector {
  const index = new Int32Array(view.index.buffer, view.index.byteOffset, view.index.length / 4);
  const data = view.data;
  if (type === 'BINARY') {
    const values = new Array<Uint8Array | null>(count);
    for (let k = 0; k < count; k++) {
      const offset = (index[2 * (start + k) + 1] as number) * 4294967296 + ((index[2 * (start + k)] as number) >>> 0);
      const length = data.readInt32LE(offset);
      values[k] = length < 0 ? null : data.subarray(offset + 4, offset + 4 + length);
    }
    return { type, data: values };
  }
  const values = new Array<string | null>(count);
  for (let k = 0; k < count; k++) {
    const offset = (index[2 * (start + k) + 1] as number) * 4294967296 + ((index[2 * (start + k)] as number) >>> 0);
    const length = data.readInt32LE(offset);
    values[k] = length < 0 ? null : data.toString('utf8', offset + 4, offset + 4 + length);
  }
  return { type, data: values };
}
