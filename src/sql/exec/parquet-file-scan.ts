// read_parquet('<file>') as a table source: row group after row group of the file, decoded by the Parquet
// partition reader into storage form and handed out as column batches of at most batchRowsMax rows. Only the
// columns the query uses are decoded. The designated timestamp (TIMESTAMP(col) after the call) is trusted to be
// ascending, as for a derived table.
import { StorageError } from '../../core/errors.js';
import { arrayTypeDimCount, isArrayType, isWellFormedArray } from '../../types/double-array.js';
import type { ColumnBatch, Vector } from './batch.js';
import type { Cursor, ExecContext, QueryFactory } from './operator.js';
import { indent } from './operator.js';
import type { OutputColumn } from '../bind/bound.js';
import type { ColumnType } from '../../types/column-type.js';
import type { ParquetPartitionReader } from '../../storage/parquet/parquet-partition-reader.js';
import type { ColumnData } from '../../storage/row-chunk.js';
import { varColumnValues } from '../../storage/row-chunk.js';
import { batchRowsMax } from '../../core/limits.js';
import { int64WordsToNumbers } from '../../types/int64-words.js';
import { assert } from '../../core/assert.js';
import { isTextCodedType, readTextCoded } from '../../types/coded-columns.js';

/** A column of the file: its Parquet name and the svc type its values take. */
export interface ParquetFileColumn {
  readonly name: string;
  readonly type: ColumnType;
}

export class ParquetFileScanFactory implements QueryFactory {
  readonly columns: readonly OutputColumn[];

  /** `used` are indexes into `fileColumns`, in output order. */
  constructor(
    private readonly path: string,
    private readonly reader: ParquetPartitionReader,
    private readonly fileColumns: readonly ParquetFileColumn[],
    private readonly used: readonly number[],
    readonly timestampIndex: number,
  ) {
    this.columns = used.map((index) => {
      const column = fileColumns[index];
      assert(column !== undefined, 'used columns index the file columns');
      return { name: column.name, type: column.type };
    });
  }

  open(ctx: ExecContext): Cursor {
    const reader = this.reader;
    const starts = reader.footer.rowGroupStarts;
    const columns = this.used.map((index) => this.fileColumns[index]);
    let group = 0;
    let row = 0;
    let decoded: ColumnData[] = [];
    return {
      nextBatch(): ColumnBatch | undefined {
        while (group < starts.length - 1) {
          const groupStart = starts[group];
          const groupEnd = starts[group + 1];
          if (row >= groupEnd) {
            group++;
            decoded = [];
            continue;
          }
          ctx.checkCancelled();
          if (decoded.length === 0 && columns.length > 0) decoded = columns.map((column) => reader.readRows(column.name, column.type, groupStart, groupEnd));
          const count = Math.min(batchRowsMax, groupEnd - row);
          const vectors = columns.map((column, k) => storageVector(column.type, decoded[k], row - groupStart, count));
          row += count;
          return { rowCount: count, vectors };
        }
        return undefined;
      },
      close(): void {},
    };
  }

  explain(depth: number): string[] {
    return [indent(depth, `parquet file scan: ${this.path}`)];
  }
}

/** Aligned copy when the bytes do not start on an 8-byte boundary (pool-allocated buffers may not). */
function aligned(bytes: Buffer): Buffer {
  return bytes.byteOffset % 8 === 0 ? bytes : Buffer.from(bytes);
}

/** Array values read from a Parquet file are checked once, so a damaged file is an error, not a wrong read. */
function checkArrayValues(values: readonly (Uint8Array | null)[], dimCount: number): void {
  for (const value of values) {
    if (value !== null && !isWellFormedArray(value, dimCount)) throw new StorageError(`corrupt array value in a Parquet partition [dims=${dimCount}, bytes=${value.length}]`);
  }
}

function storageVector(type: ColumnType, data: ColumnData, start: number, count: number): Vector {
  if (data.kind === 'var') {
    const bytesType = type === 'BINARY' || isArrayType(type);
    const values = varColumnValues(data, start, count, bytesType);
    if (isArrayType(type)) checkArrayValues(values as (Uint8Array | null)[], arrayTypeDimCount(type));
    return bytesType ? { type, data: values as (Uint8Array | null)[] } : { type, data: values as (string | null)[] };
  }
  const bytes = aligned(data.bytes);
  const base = bytes.byteOffset;
  if (isTextCodedType(type)) return { type, data: readTextCoded(type, bytes, start, count) };
  switch (type) {
    case 'DOUBLE': return { type, data: new Float64Array(bytes.buffer, base + start * 8, count) };
    case 'FLOAT': return { type, data: new Float32Array(bytes.buffer, base + start * 4, count) };
    case 'INT': case 'IPV4': case 'SYMBOL': return { type, data: new Int32Array(bytes.buffer, base + start * 4, count) };
    case 'SHORT': return { type, data: new Int16Array(bytes.buffer, base + start * 2, count) };
    case 'CHAR': return { type, data: new Uint16Array(bytes.buffer, base + start * 2, count) };
    case 'BYTE': case 'BOOLEAN': return { type, data: new Int8Array(bytes.buffer, base + start, count) };
    case 'LONG': case 'DATE': case 'TIMESTAMP': case 'TIMESTAMP_NS':
      return { type, exact: new BigInt64Array(bytes.buffer, base + start * 8, count), data: int64WordsToNumbers(new Int32Array(bytes.buffer, base + start * 8, count * 2), count) };
    default:
      assert(false, `read_parquet maps no column to ${type}`);
      return { type, data: [] };
  }
}
