// A read snapshot of one table, pinned at the txn it read: the partitions and row counts of that _txn,
// with column files memory-mapped on demand. Readers never see rows or partition versions newer than their txn.
import { join } from 'node:path';
import type { TableMeta } from './table-meta.js';
import type { PartitionEntry, TxnState } from './txn-file.js';
import { partitionDirName } from './txn-file.js';
import { columnFilePaths } from './column-files.js';
import { mapFileRange, mapFileRangeIfExists } from './mmap.js';
import type { SymbolTableCache } from './symbol-dictionary.js';
import { STORAGE_WIDTH_BYTES, isVariableSize } from '../types/column-type.js';
import { assert } from '../core/assert.js';

export type ColumnView =
  | { readonly kind: 'fixed'; readonly bytes: Buffer }
  | { readonly kind: 'var'; readonly data: Buffer; readonly index: Buffer }
  /** The column was added after this partition was written: every row is null. */
  | { readonly kind: 'absent' };

export interface PartitionView {
  readonly entry: PartitionEntry;
  readonly dir: string;
}

export class TableSnapshot {
  readonly partitions: readonly PartitionView[];
  private readonly views = new Map<string, ColumnView>();

  constructor(readonly dir: string, readonly meta: TableMeta, readonly txn: TxnState, private readonly symbolCache: SymbolTableCache) {
    assert(meta.structureVersion === txn.structureVersion, 'snapshot meta and txn agree on the structure version');
    this.partitions = txn.partitions.map((entry) => ({ entry, dir: join(dir, partitionDirName(entry)) }));
  }

  get rowCount(): number {
    return this.txn.rowCount;
  }

  /** Maps the given columns of every partition now, so later partition clean-up cannot pull files away. */
  pinColumns(columnIndexes: readonly number[]): void {
    for (let p = 0; p < this.partitions.length; p++) {
      for (const column of columnIndexes) this.column(p, column);
    }
  }

  column(partitionIndex: number, columnIndex: number): ColumnView {
    const key = `${partitionIndex}:${columnIndex}`;
    let view = this.views.get(key);
    if (view === undefined) {
      view = this.mapColumn(partitionIndex, columnIndex);
      this.views.set(key, view);
    }
    return view;
  }

  /** Texts of the committed keys of a SYMBOL column. */
  symbols(columnIndex: number): readonly string[] {
    const column = this.meta.columns[columnIndex];
    assert(column !== undefined && column.type === 'SYMBOL', 'symbols() is asked of a SYMBOL column');
    const count = this.txn.symbolCounts[columnIndex] ?? 0;
    return this.symbolCache.load(`${this.meta.tableId}:${column.fileStem}`, this.dir, column.fileStem, count);
  }

  private mapColumn(partitionIndex: number, columnIndex: number): ColumnView {
    const partition = this.partitions[partitionIndex];
    const column = this.meta.columns[columnIndex];
    assert(partition !== undefined && column !== undefined, 'column view indexes are in range');
    const rows = partition.entry.rowCount;
    const paths = columnFilePaths(partition.dir, column.fileStem);
    if (!isVariableSize(column.type)) {
      const bytes = mapFileRangeIfExists(paths.data, rows * STORAGE_WIDTH_BYTES[column.type]);
      return bytes === undefined ? { kind: 'absent' } : { kind: 'fixed', bytes };
    }
    const index = mapFileRangeIfExists(paths.index, (rows + 1) * 8);
    if (index === undefined) return { kind: 'absent' };
    const dataEnd = Number(index.readBigInt64LE(rows * 8));
    return { kind: 'var', data: mapFileRange(paths.data, dataEnd), index };
  }
}
