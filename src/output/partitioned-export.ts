// /exp with partition_by ≠ NONE: one Parquet file per partition of the designated timestamp, named like
// QuestDB's partition directories (2024-01-01.parquet for DAY), delivered as a single streamed ZIP archive.
// ZIP rather than tar: a tar header needs the entry size before its bytes, which would mean holding a whole
// partition's file (memory or temp disk); ZIP puts sizes after the data, so memory stays one row group.
// A designated timestamp keeps the result in time order, so each partition arrives as one run of rows; should a
// partition come back later anyway, its rows go into a further file (2024-01-01.1.parquet) and none are lost.
import { assert } from '../core/assert.js';
import { partitionCeilExclusive, partitionFloor, partitionName } from '../types/timestamp.js';
import type { ColumnBatch } from '../sql/exec/batch.js';
import { ParquetFileWriter } from './parquet-writer.js';
import type { ParquetEmit, ParquetExportWriter } from './parquet-writer.js';
import type { ExportColumn, ParquetExportOptions, ParquetPartitionUnit } from './parquet-params.js';
import { ZipStreamWriter } from './zip-stream-writer.js';

/** A partition's half-open time range in microseconds and its file name stem. */
export interface PartitionRange {
  readonly lo: number;
  readonly hi: number;
  readonly name: string;
}

/** The MIME type and file extension of an export's download. */
export function parquetExportDownload(options: ParquetExportOptions): { contentType: string; extension: string } {
  return options.partitionBy === 'NONE'
    ? { contentType: 'application/vnd.apache.parquet', extension: '.parquet' }
    : { contentType: 'application/zip', extension: '.zip' };
}

/** Chooses the single-file or the partitioned writer. `timestampIndex` was checked by checkParquetColumns. */
export function createParquetExportWriter(
  columns: readonly ExportColumn[],
  options: ParquetExportOptions,
  timestampIndex: number,
  emit: ParquetEmit,
): ParquetExportWriter {
  if (options.partitionBy === 'NONE') return new ParquetFileWriter(columns, options, emit);
  return new PartitionedParquetWriter(columns, options, timestampIndex, emit);
}

export class PartitionedParquetWriter implements ParquetExportWriter {
  private readonly zip: ZipStreamWriter;
  private readonly unit: Exclude<ParquetPartitionUnit, 'NONE'>;
  private readonly filesPerName = new Map<string, number>();
  private range: PartitionRange | undefined;
  private writer: ParquetFileWriter | undefined;
  private rows = 0;

  constructor(
    private readonly columns: readonly ExportColumn[],
    private readonly options: ParquetExportOptions,
    private readonly timestampIndex: number,
    emit: ParquetEmit,
  ) {
    assert(options.partitionBy !== 'NONE', 'the partitioned writer is used only with a partition unit');
    assert(columns[timestampIndex]?.type === 'TIMESTAMP', 'partitions follow a TIMESTAMP column');
    this.unit = options.partitionBy;
    this.zip = new ZipStreamWriter(emit);
  }

  get rowCount(): number {
    return this.rows;
  }

  writeBatch(batch: ColumnBatch): void {
    const timestamps = batch.vectors[this.timestampIndex].data;
    assert(timestamps instanceof Float64Array, 'TIMESTAMP vectors hold Float64Array microseconds');
    let from = 0;
    while (from < batch.rowCount) {
      const range = this.rangeFor(timestamps[from]);
      let to = from + 1;
      // NaN (a null timestamp) compares false, so it never extends a run of real times, nor they a null one.
      if (Number.isNaN(range.lo)) while (to < batch.rowCount && Number.isNaN(timestamps[to])) to++;
      else while (to < batch.rowCount && timestamps[to] >= range.lo && timestamps[to] < range.hi) to++;
      const writer = this.writer;
      assert(writer !== undefined, 'rangeFor opened a partition file');
      writer.writeRows(batch, from, to);
      this.rows += to - from;
      from = to;
    }
  }

  finish(): void {
    this.closeFile();
    this.zip.finish();
  }

  /** The current partition when `micros` falls in it; otherwise closes it and opens the one `micros` is in. */
  private rangeFor(micros: number): PartitionRange {
    const current = this.range;
    if (current !== undefined && (Number.isNaN(micros) ? Number.isNaN(current.lo) : micros >= current.lo && micros < current.hi)) return current;
    this.closeFile();
    const range = partitionRange(this.unit, micros);
    const seen = this.filesPerName.get(range.name) ?? 0;
    this.filesPerName.set(range.name, seen + 1);
    this.zip.beginEntry(seen === 0 ? `${range.name}.parquet` : `${range.name}.${seen}.parquet`);
    this.writer = new ParquetFileWriter(this.columns, this.options, (bytes) => this.zip.writeEntryData(bytes));
    this.range = range;
    return range;
  }

  private closeFile(): void {
    if (this.writer === undefined) return;
    this.writer.finish();
    this.zip.endEntry();
    this.writer = undefined;
    this.range = undefined;
  }
}

/** Partition of a UTC microsecond timestamp, named as QuestDB names partitions; NaN (null) gets `null`. */
export function partitionRange(unit: Exclude<ParquetPartitionUnit, 'NONE'>, micros: number): PartitionRange {
  if (Number.isNaN(micros)) return { lo: Number.NaN, hi: Number.NaN, name: 'null' };
  return { lo: partitionFloor(micros, unit), hi: partitionCeilExclusive(micros, unit), name: partitionName(micros, unit) };
}
