// Import staging segments: an upload's rows, written chunk by chunk to `db/.staging/<id>/` while the request
// streams, invisible to readers. Rows are split by the table's partitioning as they arrive and each staged
// partition is a partition directory of its own (column files named `c<k>`, SYMBOL and UUID as text), so the
// primary can take a staged partition into the table by renaming its files. `columns.json`, written last,
// marks a complete segment; an aborted or orphaned one (found at start-up) is deleted.
import { join } from 'node:path';
import type { ColumnType } from '../types/column-type.js';
import { isVariableSize } from '../types/column-type.js';
import type { PartitionUnit } from '../types/timestamp.js';
import { assert } from '../core/assert.js';
import { StorageError } from '../core/errors.js';
import type { FilesFacade } from '../core/files.js';
import type { ColumnMeta } from './table-meta.js';
import type { RowChunk } from './row-chunk.js';
import { gatherChunk, sliceChunk } from './row-chunk.js';
import { appendColumn, readPartitionRows } from './column-files.js';
import { DEFAULT_PARTITION, isAscending, partitionSpanOf, stableSortPermutation, timestampsOf } from './partition-layout.js';

export const STAGING_DIR_NAME = '.staging';

export function stagingRoot(dbDir: string): string {
  return join(dbDir, STAGING_DIR_NAME);
}

/** Whether a staged column holds text records: every variable-size type, and SYMBOL and UUID as their text. */
export function isStagedAsText(type: ColumnType): boolean {
  return type === 'SYMBOL' || type === 'UUID' || isVariableSize(type);
}

/** How rows are split: the target table's partitioning and the index of its designated timestamp (-1: none). */
export interface StagingLayout {
  readonly partitionBy: PartitionUnit;
  readonly timestampIndex: number;
}

/** One staged partition; `ordered` = its rows are in designated-timestamp order, ready to become a partition as is. */
export interface StagedPartition {
  readonly name: string;
  /** Sub-directory of the segment. */
  readonly dirName: string;
  rowCount: number;
  minTimestamp: number;
  maxTimestamp: number;
  ordered: boolean;
}

interface SegmentManifest {
  readonly columns: { name: string; type: ColumnType }[];
  readonly layout: StagingLayout;
  /** Rows left out because their designated timestamp was before 1970 (a partition cannot hold them). */
  readonly droppedRows: number;
  readonly partitions: StagedPartition[];
}

/** Column metadata of the staged files: stems `c<k>`, SYMBOL and UUID read and written as VARCHAR records. */
export function stagedColumnMetas(columns: readonly { name: string; type: ColumnType }[]): ColumnMeta[] {
  return columns.map((column, k) => ({
    name: column.name, type: column.type === 'SYMBOL' || column.type === 'UUID' ? 'VARCHAR' : column.type, fileStem: `c${k}`, indexed: false, symbolCapacity: 0,
  }));
}

export class StagingSegmentWriter {
  private readonly metas: ColumnMeta[];
  private readonly partitions = new Map<string, StagedPartition>();
  private droppedRows = 0;
  private closed = false;

  constructor(private readonly files: FilesFacade, readonly dir: string, private readonly columns: readonly { name: string; type: ColumnType }[], private readonly layout: StagingLayout) {
    assert(layout.timestampIndex < columns.length, 'the designated timestamp is one of the staged columns');
    files.mkdirs(dir);
    this.metas = stagedColumnMetas(columns);
  }

  /** Appends rows in storage form (SYMBOL and UUID columns as text records) to the partitions they belong to. */
  append(chunk: RowChunk): void {
    assert(!this.closed, 'no appends after finish or abort');
    assert(chunk.columns.length === this.columns.length, 'a staged chunk has one column per segment column');
    const tsIndex = this.layout.timestampIndex;
    if (tsIndex < 0 || chunk.rowCount === 0) {
      this.appendToPartition(DEFAULT_PARTITION, chunk, undefined);
      return;
    }
    let rows = chunk;
    let timestamps = timestampsOf(chunk.columns[tsIndex] as RowChunk['columns'][number], chunk.rowCount);
    const storable = storableRows(timestamps);
    if (storable.length !== rows.rowCount) {
      this.droppedRows += rows.rowCount - storable.length;
      rows = gatherChunk(rows, storable, 0, storable.length);
      timestamps = Float64Array.from(storable, (row) => timestamps[row] as number);
    }
    if (!isAscending(timestamps)) {
      const order = stableSortPermutation(timestamps);
      rows = gatherChunk(rows, order, 0, order.length);
      timestamps = Float64Array.from(order, (row) => timestamps[row] as number);
    }
    let from = 0;
    while (from < rows.rowCount) {
      const span = partitionSpanOf(timestamps[from] as number, this.layout.partitionBy);
      let to = from + 1;
      while (to < rows.rowCount && (timestamps[to] as number) < span.end) to++;
      this.appendToPartition(span.name, sliceChunk(rows, from, to), timestamps.subarray(from, to));
      from = to;
    }
  }

  private appendToPartition(name: string, rows: RowChunk, timestamps: Float64Array | undefined): void {
    if (rows.rowCount === 0) return;
    let partition = this.partitions.get(name);
    const first = timestamps === undefined ? 0 : (timestamps[0] as number);
    const last = timestamps === undefined ? 0 : (timestamps[timestamps.length - 1] as number);
    if (partition === undefined) {
      partition = { name, dirName: `p${this.partitions.size}`, rowCount: 0, minTimestamp: first, maxTimestamp: last, ordered: true };
      this.partitions.set(name, partition);
      this.files.mkdirs(join(this.dir, partition.dirName));
    }
    const dir = join(this.dir, partition.dirName);
    const session = { files: this.files, durable: false };
    for (let k = 0; k < this.metas.length; k++) appendColumn(session, dir, this.metas[k] as ColumnMeta, rows.columns[k] as RowChunk['columns'][number], partition.rowCount);
    if (partition.rowCount > 0 && first < partition.maxTimestamp) partition.ordered = false;
    partition.minTimestamp = Math.min(partition.minTimestamp, first);
    partition.maxTimestamp = Math.max(partition.maxTimestamp, last);
    partition.rowCount += rows.rowCount;
  }

  /** Makes the segment complete: the manifest is written last, so a segment without one is never merged. */
  finish(): void {
    this.closed = true;
    const manifest: SegmentManifest = { columns: [...this.columns], layout: this.layout, droppedRows: this.droppedRows, partitions: [...this.partitions.values()] };
    this.files.writeFileAtomic(join(this.dir, 'columns.json'), Buffer.from(JSON.stringify(manifest)), false);
  }

  abort(): void {
    this.closed = true;
    this.files.removeTree(this.dir);
  }
}

/** Rows whose designated timestamp a partition can hold (not null, not before 1970). */
function storableRows(timestamps: Float64Array): Int32Array {
  const keep = new Int32Array(timestamps.length);
  let kept = 0;
  for (let row = 0; row < timestamps.length; row++) {
    if ((timestamps[row] as number) >= 0) keep[kept++] = row;
  }
  return kept === timestamps.length ? keep : keep.subarray(0, kept);
}

/** A finished segment, read back by the primary. */
export interface StagingSegment {
  readonly columns: { name: string; type: ColumnType }[];
  readonly layout: StagingLayout;
  readonly droppedRows: number;
  readonly partitions: readonly StagedPartition[];
  /** Directory of a staged partition's column files. */
  partitionDir(partition: StagedPartition): string;
  /** Metadata of the staged column files (stems `c<k>`). */
  readonly columnMetas: readonly ColumnMeta[];
  /** Rows [from, to) of a staged partition, in storage form. */
  readRows(partition: StagedPartition, from: number, to: number): RowChunk;
}

export function readStagingSegment(files: FilesFacade, dir: string): StagingSegment {
  const manifestPath = join(dir, 'columns.json');
  if (!files.exists(manifestPath)) throw new StorageError(`staging segment is incomplete [dir=${dir}]`);
  const manifest = JSON.parse(files.readFile(manifestPath).toString('utf8')) as SegmentManifest;
  const metas = stagedColumnMetas(manifest.columns);
  return {
    columns: manifest.columns,
    layout: manifest.layout,
    droppedRows: manifest.droppedRows,
    partitions: manifest.partitions,
    partitionDir: (partition) => join(dir, partition.dirName),
    columnMetas: metas,
    readRows: (partition, from, to) => readPartitionRows(files, join(dir, partition.dirName), metas, from, to),
  };
}
