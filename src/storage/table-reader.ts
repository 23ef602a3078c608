// A read snapshot of one table, pinned at the txn it read: the partitions and row counts of that _txn,
// with column files memory-mapped on demand. Readers never see rows or partition versions newer than their txn.
import { join } from 'node:path';
import type { TableMeta } from './table-meta.js';
import type { PartitionEntry, TxnState } from './txn-file.js';
import { COLD_FOOTER_FILE, partitionDirName } from './txn-file.js';
import { columnFilePaths } from './column-files.js';
import { mapFileRange, mapFileRangeIfExists } from './mmap.js';
import type { SymbolTableCache } from './symbol-dictionary.js';
import { storageWidthBytes, isVariableSize } from '../types/column-type.js';
import { assert } from '../core/assert.js';
import { ParquetPartitionReader } from './parquet/parquet-partition-reader.js';
import { ColdObjectSource } from './cold/cold-object-source.js';
import { ColdChunksNeeded, currentColdReadSession, type ColdNeed } from './cold/cold-read-session.js';

export type ColumnView =
  | { readonly kind: 'fixed'; readonly bytes: Buffer }
  | { readonly kind: 'var'; readonly data: Buffer; readonly index: Buffer }
  /** The column was added after this partition was written: every row is null. */
  | { readonly kind: 'absent' };

export interface PartitionView {
  readonly entry: PartitionEntry;
  readonly dir: string;
  /** Set for a Parquet partition: its columns come from the file instead of mapped column files. */
  readonly parquet: ParquetPartitionReader | undefined;
}

/** Rows [lo, hi) of one partition (a scan's range, or a parallel fragment's share). */
export interface PartitionRows {
  readonly partitionIndex: number;
  readonly lo: number;
  readonly hi: number;
}

export class TableSnapshot {
  readonly partitions: readonly PartitionView[];
  private readonly views: Map<string, ColumnView>;
  /** Scans built over this snapshot (by their factory), so cold chunks can be fetched before they run. */
  private readonly scans = new Map<object, { readonly columnIndexes: readonly number[]; readonly ranges: readonly PartitionRows[] }>();

  /**
   * `rowSlice`, when set, is the share of the table a parallel fragment reads (in table order): scans of this
   * snapshot read only rows inside it. Row counts and symbol tables stay those of the whole txn.
   * `scanBatchRowsMin`, when set, makes scans size batches by their consumer's pace down to that floor, so
   * cancellation, checked between batches, reaches a costly fragment within milliseconds.
   */
  constructor(
    readonly dir: string, readonly meta: TableMeta, readonly txn: TxnState, private readonly symbolCache: SymbolTableCache,
    readonly rowSlice?: readonly PartitionRows[], readonly scanBatchRowsMin?: number, sharedViews?: Map<string, ColumnView>,
  ) {
    this.views = sharedViews ?? new Map<string, ColumnView>();
    assert(meta.structureVersion === txn.structureVersion, 'snapshot meta and txn agree on the structure version');
    let cold = false;
    this.partitions = txn.partitions.map((entry) => {
      const partitionDir = join(dir, partitionDirName(entry));
      if (entry.cold !== undefined && !entry.cold.local && entry.parquetBytes !== undefined) {
        cold = true;
        const object = { table: meta.name, partition: entry.name, key: entry.cold.key, etag: entry.cold.etag, sizeBytes: entry.cold.bytes };
        const source = new ColdObjectSource(object, join(partitionDir, COLD_FOOTER_FILE));
        return { entry, dir: partitionDir, parquet: new ParquetPartitionReader(source, entry.rowCount) };
      }
      const parquet = entry.parquetBytes === undefined ? undefined : ParquetPartitionReader.local(partitionDir, entry.parquetBytes, entry.rowCount);
      return { entry, dir: partitionDir, parquet };
    });
    if (cold) currentColdReadSession()?.addPlanner(() => this.coldNeeds());
  }

  /** A scan factory announces the columns and rows it will read; a narrower scan derived from it replaces it. */
  noteScan(owner: object, columnIndexes: readonly number[], ranges: readonly PartitionRows[]): void {
    this.scans.set(owner, { columnIndexes, ranges });
  }

  forgetScan(owner: object): void {
    this.scans.delete(owner);
  }

  /** Rows the largest scan built over this snapshot will read (0 when none was built, e.g. count(*) from _txn). */
  notedScanRows(): number {
    let rows = 0;
    for (const range of this.notedScanRanges()) rows += range.hi - range.lo;
    return rows;
  }

  /** The row ranges of the largest scan built over this snapshot, in table order (none when no scan was built). */
  notedScanRanges(): readonly PartitionRows[] {
    let largest: readonly PartitionRows[] = [];
    let largestRows = 0;
    for (const scan of this.scans.values()) {
      let rows = 0;
      for (const range of scan.ranges) rows += range.hi - range.lo;
      if (rows > largestRows) {
        largest = scan.ranges;
        largestRows = rows;
      }
    }
    return largest;
  }

  /**
   * `error` widened to every chunk rows [lo, hi) of these columns need, when it is a cold read that lacked a
   * chunk of this partition; any other error is returned as it is.
   */
  coldNeedsOfRows(error: unknown, partitionIndex: number, columnIndexes: readonly number[], lo: number, hi: number): unknown {
    const parquet = this.partitions[partitionIndex]?.parquet;
    if (!(error instanceof ColdChunksNeeded) || parquet === undefined || !(parquet.source instanceof ColdObjectSource)) return error;
    const columns = columnIndexes.map((index) => this.meta.columns[index]).filter((column) => column !== undefined).map((column) => ({ stem: column.fileStem, type: column.type }));
    const ranges = parquet.missingChunkRanges(columns, lo, hi);
    return ranges.length === 0 ? error : new ColdChunksNeeded([...error.needs, { object: parquet.source.object, ranges }]);
  }

  /** Chunks of cold partitions the announced scans will read and the decoded-column cache does not hold. */
  private coldNeeds(): ColdNeed[] {
    const byPartition = new Map<number, Map<string, { offset: number; length: number }>>();
    for (const scan of this.scans.values()) {
      const columns = scan.columnIndexes.map((index) => this.meta.columns[index]).filter((column) => column !== undefined).map((column) => ({ stem: column.fileStem, type: column.type }));
      for (const range of scan.ranges) {
        const parquet = this.partitions[range.partitionIndex]?.parquet;
        if (parquet === undefined || !(parquet.source instanceof ColdObjectSource)) continue;
        let ranges = byPartition.get(range.partitionIndex);
        if (ranges === undefined) byPartition.set(range.partitionIndex, ranges = new Map());
        for (const chunk of parquet.missingChunkRanges(columns, range.lo, range.hi)) ranges.set(`${chunk.offset}:${chunk.length}`, chunk);
      }
    }
    const needs: ColdNeed[] = [];
    for (const [partitionIndex, ranges] of byPartition) {
      const source = this.partitions[partitionIndex]?.parquet?.source;
      if (source instanceof ColdObjectSource && ranges.size > 0) needs.push({ object: source.object, ranges: [...ranges.values()] });
    }
    return needs;
  }

  /** The same txn restricted to a parallel fragment's rows; column mappings are shared, not made again. */
  withSlice(rowSlice: readonly PartitionRows[], scanBatchRowsMin: number): TableSnapshot {
    return new TableSnapshot(this.dir, this.meta, this.txn, this.symbolCache, rowSlice, scanBatchRowsMin, this.views);
  }

  get rowCount(): number {
    return this.txn.rowCount;
  }

  /**
   * Maps the given columns of every native partition now, so later partition clean-up cannot pull files away.
   * Parquet partitions are decoded on demand instead (clean-up of a replaced version waits for readers).
   */
  pinColumns(columnIndexes: readonly number[]): void {
    for (let p = 0; p < this.partitions.length; p++) {
      if (this.partitions[p]?.parquet !== undefined || this.partitions[p]?.entry.cold?.local === false) continue;
      for (const column of columnIndexes) this.column(p, column);
    }
  }

  /**
   * A column of a partition. Rows [lo, hi) (all rows by default) are guaranteed readable: a Parquet partition
   * decodes only the row groups holding them, so scans pass the rows of each batch.
   */
  column(partitionIndex: number, columnIndex: number, lo?: number, hi?: number): ColumnView {
    const parquet = this.partitions[partitionIndex]?.parquet;
    if (parquet !== undefined) return this.parquetColumn(parquet, columnIndex, lo ?? 0, hi ?? parquet.rowCount);
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

  /** Rows of a partition that can hold designated timestamps in [lo, hi] (row-group statistics for Parquet). */
  timestampCandidateRows(partitionIndex: number, lo: number, hi: number): { from: number; to: number } {
    const partition = this.partitions[partitionIndex];
    const column = this.meta.columns[this.meta.timestampIndex];
    assert(partition !== undefined && column !== undefined, 'timestamp candidates are asked of a partition of a table with a designated timestamp');
    if (partition.parquet === undefined) return { from: 0, to: partition.entry.rowCount };
    return partition.parquet.timestampCandidateRows(column.fileStem, lo, hi);
  }

  /**
   * Rows [lo, hi) of a partition narrowed to the pieces that may hold `value` in a numeric column, newest piece
   * first: a Parquet partition leaves out row groups whose min/max statistics exclude the value (so a cold
   * partition fetches none of their bytes); a native partition, or a group without statistics, stays in.
   */
  rowsMayHoldValueNewestFirst(partitionIndex: number, columnIndex: number, lo: number, hi: number, value: number): { lo: number; hi: number }[] {
    const parquet = this.partitions[partitionIndex]?.parquet;
    const column = this.meta.columns[columnIndex];
    assert(column !== undefined, 'value candidates are asked of a column of the table');
    if (hi <= lo) return [];
    if (parquet === undefined || parquet.leafOf(column.fileStem) < 0) return [{ lo, hi }];
    const starts = parquet.rowGroupStarts;
    const pieces: { lo: number; hi: number }[] = [];
    for (let group = starts.length - 2; group >= 0; group--) {
      const from = Math.max(lo, starts[group]);
      const to = Math.min(hi, starts[group + 1]);
      if (to <= from) continue;
      const bounds = parquet.numericStatistics(column.fileStem, group);
      if (bounds !== undefined && (value < bounds.min || value > bounds.max)) continue;
      const newest = pieces[pieces.length - 1];
      if (newest !== undefined && newest.lo === to) newest.lo = from;
      else pieces.push({ lo: from, hi: to });
    }
    return pieces;
  }

  private parquetColumn(parquet: ParquetPartitionReader, columnIndex: number, lo: number, hi: number): ColumnView {
    const column = this.meta.columns[columnIndex];
    assert(column !== undefined, 'column view indexes are in range');
    if (parquet.leafOf(column.fileStem) < 0) return { kind: 'absent' };
    if (isVariableSize(column.type)) {
      const decoded = parquet.varColumn(column.fileStem, column.type);
      return { kind: 'var', data: decoded.data, index: decoded.index };
    }
    return { kind: 'fixed', bytes: parquet.fixedColumn(column.fileStem, column.type, lo, hi) };
  }

  private mapColumn(partitionIndex: number, columnIndex: number): ColumnView {
    const partition = this.partitions[partitionIndex];
    const column = this.meta.columns[columnIndex];
    assert(partition !== undefined && column !== undefined, 'column view indexes are in range');
    const rows = partition.entry.rowCount;
    const paths = columnFilePaths(partition.dir, column.fileStem);
    if (!isVariableSize(column.type)) {
      const bytes = mapFileRangeIfExists(paths.data, rows * storageWidthBytes(column.type));
      return bytes === undefined ? { kind: 'absent' } : { kind: 'fixed', bytes };
    }
    const index = mapFileRangeIfExists(paths.index, (rows + 1) * 8);
    if (index === undefined) return { kind: 'absent' };
    const dataEnd = Number(index.readBigInt64LE(rows * 8));
    return { kind: 'var', data: mapFileRange(paths.data, dataEnd), index };
  }
}
