// Import staging segments: an upload's rows, written chunk by chunk to `db/.staging/<id>/` while the request
// streams, invisible to readers. Rows arrive split by the table's partitioning (partition-split.ts) and each
// staged partition is a partition directory of its own (column files named `c<k>`, SYMBOL and UUID as text),
// so the primary can take a staged partition into the table by renaming its files. `columns.json`, written
// last, marks a complete segment; an aborted or orphaned one (found at start-up) is deleted.
import { join } from 'node:path';
import type { ColumnType } from '../types/column-type.js';
import { isVariableSize } from '../types/column-type.js';
import { assert } from '../core/assert.js';
import { StorageError } from '../core/errors.js';
import type { FilesFacade } from '../core/files.js';
import type { ColumnMeta } from './table-meta.js';
import type { RowChunk } from './row-chunk.js';
import { readPartitionRows } from './column-files.js';
import type { PartitionedRows, StagingLayout } from './partition-split.js';
import { summarizePart, writePlacedPart, type PartPlacement, type PartSummary } from './staged-part-writes.js';
import { isTextCodedType } from '../types/coded-columns.js';

export type { StagingLayout };

export const STAGING_DIR_NAME = '.staging';

export function stagingRoot(dbDir: string): string {
  return join(dbDir, STAGING_DIR_NAME);
}

/** Whether a staged column holds text records: every variable-size type, SYMBOL, and UUID, LONG256, GEOHASH as their text. */
export function isStagedAsText(type: ColumnType): boolean {
  return type === 'SYMBOL' || isTextCodedType(type) || isVariableSize(type);
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
  /** Per column: bytes of text records placed so far (0 for fixed-width columns). */
  textBytes: number[];
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
    name: column.name, type: column.type === 'SYMBOL' || isTextCodedType(column.type) ? 'VARCHAR' : column.type, fileStem: `c${k}`, indexed: false, symbolCapacity: 0,
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

  /** Appends rows in storage form (SYMBOL and UUID columns as text records), already split by partition. */
  append(rows: PartitionedRows): void {
    this.addDroppedRows(rows.droppedRows);
    for (const part of rows.parts) {
      if (part.rows.rowCount > 0) writePlacedPart(this.files, this.metas, this.place(summarizePart(part)), part.rows);
    }
  }

  addDroppedRows(count: number): void {
    this.droppedRows += count;
  }

  /**
   * Reserves the rows and text bytes of a part in its staged partition (creating it), in upload order; the
   * caller then writes the part there (writePlacedPart), possibly on another thread.
   */
  place(part: PartSummary): PartPlacement {
    assert(!this.closed, 'no appends after finish or abort');
    assert(part.textBytes.length === this.columns.length && part.rowCount > 0, 'a placed part has rows and one entry per column');
    let partition = this.partitions.get(part.name);
    if (partition === undefined) {
      partition = {
        name: part.name, dirName: `p${this.partitions.size}`, rowCount: 0, minTimestamp: part.minTimestamp, maxTimestamp: part.maxTimestamp,
        ordered: true, textBytes: this.columns.map(() => 0),
      };
      this.partitions.set(part.name, partition);
      this.files.mkdirs(join(this.dir, partition.dirName));
    }
    const placement: PartPlacement = { dir: join(this.dir, partition.dirName), rowStart: partition.rowCount, textStarts: [...partition.textBytes] };
    if (partition.rowCount > 0 && part.minTimestamp < partition.maxTimestamp) partition.ordered = false;
    partition.minTimestamp = Math.min(partition.minTimestamp, part.minTimestamp);
    partition.maxTimestamp = Math.max(partition.maxTimestamp, part.maxTimestamp);
    partition.rowCount += part.rowCount;
    part.textBytes.forEach((bytes, k) => { partition.textBytes[k] = partition.textBytes[k] + bytes; });
    return placement;
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
