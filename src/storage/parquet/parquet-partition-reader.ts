// Read side of a Parquet partition (`<partition dir>/data.parquet`): the table's columns, found by file stem
// (key-value metadata `svc.column.stems`), as the same storage-form buffers native column files map to. Fixed-
// width columns are decoded row group by row group, only for the rows asked for; variable-size columns whole.
// Row groups are read through a ByteRangeSource (the footer once, then one range per column chunk), so a
// remote source can replace the local file without touching the decoding.
import { join } from 'node:path';
import type { ColumnType } from '../../types/column-type.js';
import { storageWidthBytes } from '../../types/column-type.js';
import { assert } from '../../core/assert.js';
import { StorageError } from '../../core/errors.js';
import { int64Offsets } from '../column-files.js';
import type { ColumnData } from '../row-chunk.js';
import { LocalFileSource, type ByteRangeSource } from './byte-range-source.js';
import { columnChunkRange, parquetFooterOf, rowGroupOf, type ParquetFooter } from './parquet-footer.js';
import { decodeColumnChunk } from './parquet-column-decoder.js';
import { cacheColumn, cachedColumn, type DecodedFixedColumn, type DecodedVarColumn } from './decoded-column-cache.js';
import { ColdChunksNeeded } from '../cold/cold-read-session.js';

export const PARQUET_PARTITION_FILE = 'data.parquet';
/** Key-value metadata naming the svc file stem of each Parquet column, as a JSON array in column order. */
export const PARQUET_STEMS_KEY = 'svc.column.stems';

export function parquetPartitionPath(partitionDir: string): string {
  return join(partitionDir, PARQUET_PARTITION_FILE);
}

export class ParquetPartitionReader {
  private footerValue: ParquetFooter | undefined;
  private stems: readonly string[] | undefined;

  /**
   * `source` is this partition's file; the reader owns it and closes it after each read. `byName`: columns are
   * looked up by their Parquet names (read_parquet of any file) instead of by svc file stems.
   */
  constructor(readonly source: ByteRangeSource, readonly rowCount: number, private readonly byName = false) {}

  /** Any Parquet file (read_parquet): the row count comes from its footer. */
  static file(source: ByteRangeSource): ParquetPartitionReader {
    let footer: ParquetFooter;
    try {
      footer = parquetFooterOf(source);
    } finally {
      source.close();
    }
    return new ParquetPartitionReader(source, footer.rowCount, true);
  }

  static local(partitionDir: string, sizeBytes: number, rowCount: number): ParquetPartitionReader {
    const path = parquetPartitionPath(partitionDir);
    return new ParquetPartitionReader(new LocalFileSource(path, { sizeBytes, key: `${path}:${sizeBytes}` }), rowCount);
  }

  get footer(): ParquetFooter {
    if (this.footerValue === undefined) {
      let footer: ParquetFooter;
      try {
        footer = parquetFooterOf(this.source);
      } finally {
        this.source.close();
      }
      if (footer.rowCount !== this.rowCount) throw new StorageError(`parquet partition row count differs from _txn [source=${this.source.key}, file=${footer.rowCount}, txn=${this.rowCount}]`);
      this.footerValue = footer;
    }
    return this.footerValue;
  }

  /** Parquet column index of a table column's file stem, or -1 when the partition predates the column. */
  leafOf(stem: string): number {
    if (this.stems === undefined && this.byName) this.stems = this.footer.leaves.map((leaf) => leaf.name);
    if (this.stems === undefined) {
      const text = this.footer.keyValues.get(PARQUET_STEMS_KEY);
      const parsed: unknown = text === undefined ? undefined : JSON.parse(text);
      this.stems = Array.isArray(parsed) ? parsed.map(String) : this.footer.leaves.map((leaf) => leaf.name);
    }
    return this.stems.indexOf(stem);
  }

  /** A fixed-width column with at least rows [lo, hi) decoded. */
  fixedColumn(stem: string, type: ColumnType, lo: number, hi: number): Buffer {
    const leaf = this.leafOf(stem);
    assert(leaf >= 0 && lo <= hi && hi <= this.rowCount, 'fixed parquet column reads name a present column and rows inside the partition');
    const key = `${this.source.key}|${stem}|${type}`;
    let column = cachedColumn(key);
    if (column === undefined || column.kind !== 'fixed') {
      const fresh: DecodedFixedColumn = {
        kind: 'fixed',
        bytes: Buffer.alloc(this.rowCount * storageWidthBytes(type)),
        filled: new Uint8Array(this.footer.rowGroupStarts.length - 1),
      };
      cacheColumn(key, fresh);
      column = fresh;
    }
    if (hi > lo) {
      const footer = this.footer;
      const last = rowGroupOf(footer, hi - 1);
      for (let group = rowGroupOf(footer, lo); group <= last; group++) {
        if (column.filled[group] === 1) continue;
        const data = this.decodeGroupOrAskRest(leaf, group, last, type);
        assert(data.kind === 'fixed', 'a fixed-width type decodes to fixed-width storage');
        column.bytes.set(data.bytes, footer.rowGroupStarts[group] * data.width);
        column.filled[group] = 1;
      }
    }
    return column.bytes;
  }

  /** A variable-size column, every row decoded, as native `.d` bytes and `.i` offsets. */
  varColumn(stem: string, type: ColumnType): DecodedVarColumn {
    const leaf = this.leafOf(stem);
    assert(leaf >= 0, 'var parquet column reads name a present column');
    const key = `${this.source.key}|${stem}|${type}`;
    const cached = cachedColumn(key);
    if (cached !== undefined && cached.kind === 'var') return cached;
    const groups = this.footer.rowGroupStarts.length - 1;
    const parts: Buffer[] = [];
    const offsets = new Float64Array(this.rowCount + 1);
    let base = 0;
    for (let group = 0; group < groups; group++) {
      const data = this.decodeGroupOrAskRest(leaf, group, groups - 1, type);
      assert(data.kind === 'var', 'a variable-size type decodes to records');
      const start = this.footer.rowGroupStarts[group];
      for (let k = 0; k < data.offsets.length - 1; k++) offsets[start + k] = base + data.offsets[k];
      parts.push(data.bytes);
      base += data.bytes.length;
    }
    offsets[this.rowCount] = base;
    const column: DecodedVarColumn = { kind: 'var', data: Buffer.concat(parts, base), index: Buffer.from(int64Offsets(offsets, 0).buffer) };
    cacheColumn(key, column);
    return column;
  }

  /** Rows [lo, hi) of a column in storage form, for rewrites (O3 merge, UPDATE, conversion back to native). */
  readRows(stem: string, type: ColumnType, lo: number, hi: number): ColumnData {
    if (storageWidthBytes(type) > 0) {
      const width = storageWidthBytes(type);
      return { kind: 'fixed', width, bytes: Buffer.from(this.fixedColumn(stem, type, lo, hi).subarray(lo * width, hi * width)) };
    }
    const column = this.varColumn(stem, type);
    const index = new BigInt64Array(column.index.buffer, column.index.byteOffset, this.rowCount + 1);
    const start = Number(index[lo]);
    const offsets = new Float64Array(hi - lo + 1);
    for (let k = 0; k <= hi - lo; k++) offsets[k] = Number(index[lo + k]) - start;
    return { kind: 'var', bytes: Buffer.from(column.data.subarray(start, Number(index[hi]))), offsets };
  }

  /**
   * The byte ranges a read of rows [lo, hi) of the given columns needs: one per column chunk, in file order. A
   * remote source fetches (and coalesces) exactly these before the scan runs; columns the file lacks need none.
   */
  chunkRanges(stems: readonly string[], lo: number, hi: number): { offset: number; length: number }[] {
    const footer = this.footer;
    const ranges: { offset: number; length: number }[] = [];
    if (hi <= lo) return ranges;
    const last = rowGroupOf(footer, hi - 1);
    for (let group = rowGroupOf(footer, lo); group <= last; group++) {
      for (const stem of stems) {
        const leaf = this.leafOf(stem);
        if (leaf >= 0) ranges.push(columnChunkRange(footer, group, leaf));
      }
    }
    return ranges.sort((a, b) => a.offset - b.offset);
  }

  /**
   * The chunk ranges a read of rows [lo, hi) of these columns still needs: chunks whose row group the process's
   * decoded-column cache already holds are left out (a cold read then fetches nothing for them).
   */
  missingChunkRanges(columns: readonly { readonly stem: string; readonly type: ColumnType }[], lo: number, hi: number): { offset: number; length: number }[] {
    const ranges: { offset: number; length: number }[] = [];
    // No columns (count(*) answered from the row counts): nothing to fetch, and no footer to parse for it.
    if (hi <= lo || columns.length === 0) return ranges;
    const footer = this.footer;
    const first = rowGroupOf(footer, lo);
    const last = rowGroupOf(footer, hi - 1);
    for (const { stem, type } of columns) {
      const leaf = this.leafOf(stem);
      if (leaf < 0) continue;
      const cached = cachedColumn(`${this.source.key}|${stem}|${type}`);
      const variable = storageWidthBytes(type) === 0;
      if (variable && cached?.kind === 'var') continue;
      // A variable-size column decodes whole, so it needs every row group whatever rows are read.
      for (let group = variable ? 0 : first; group <= (variable ? footer.rowGroupStarts.length - 2 : last); group++) {
        if (cached?.kind === 'fixed' && cached.filled[group] === 1) continue;
        ranges.push(columnChunkRange(footer, group, leaf));
      }
    }
    return ranges;
  }

  /** Row groups: first row of each, and the row count at the end (length = row groups + 1). */
  get rowGroupStarts(): Float64Array {
    return this.footer.rowGroupStarts;
  }

  /**
   * Min/max statistics of a column in a row group as numbers, when the file has them and they are exact as
   * numbers (64-bit values beyond ±2^53 are ignored); undefined otherwise.
   */
  numericStatistics(stem: string, group: number): { min: number; max: number } | undefined {
    const leaf = this.leafOf(stem);
    if (leaf < 0) return undefined;
    const statistics = this.footer.metadata.row_groups[group]?.columns[leaf]?.meta_data?.statistics;
    const min = exactNumber(statistics?.min_value ?? statistics?.min);
    const max = exactNumber(statistics?.max_value ?? statistics?.max);
    return min === undefined || max === undefined ? undefined : { min, max };
  }

  /**
   * Rows [from, to) that can hold timestamps in [lo, hi] by the row groups' min/max statistics of the designated
   * timestamp column; the whole partition when the file has no statistics.
   */
  timestampCandidateRows(stem: string, lo: number, hi: number): { from: number; to: number } {
    const leaf = this.leafOf(stem);
    const footer = this.footer;
    let from = -1;
    let to = -1;
    for (let group = 0; group < footer.rowGroupStarts.length - 1; group++) {
      const statistics = footer.metadata.row_groups[group]?.columns[leaf]?.meta_data?.statistics;
      const min = statistics?.min_value ?? statistics?.min;
      const max = statistics?.max_value ?? statistics?.max;
      const known = typeof min === 'number' && typeof max === 'number';
      if (known && (max < lo || min > hi)) continue;
      if (from < 0) from = footer.rowGroupStarts[group];
      to = footer.rowGroupStarts[group + 1];
    }
    return from < 0 ? { from: 0, to: 0 } : { from, to };
  }

  /**
   * Decodes a row group; when its chunk is not fetched yet (a cold partition), asks for the chunks of every
   * group through `lastGroup` at once, so the statement fetches them in one round rather than one per group.
   */
  private decodeGroupOrAskRest(leaf: number, group: number, lastGroup: number, type: ColumnType): ColumnData {
    try {
      return this.decodeGroup(leaf, group, type);
    } catch (error) {
      if (!(error instanceof ColdChunksNeeded) || error.needs.length !== 1) throw error;
      const need = error.needs[0];
      const ranges = [];
      for (let rest = group; rest <= lastGroup; rest++) ranges.push(columnChunkRange(this.footer, rest, leaf));
      throw new ColdChunksNeeded([{ object: need.object, ranges }]);
    }
  }

  private decodeGroup(leaf: number, group: number, type: ColumnType): ColumnData {
    const footer = this.footer;
    const range = columnChunkRange(footer, group, leaf);
    const meta = footer.metadata.row_groups[group]?.columns[leaf]?.meta_data;
    const schema = footer.leaves[leaf];
    assert(meta !== undefined && schema !== undefined, 'column chunk metadata exists for every leaf of every row group');
    const rows = footer.rowGroupStarts[group + 1] - footer.rowGroupStarts[group];
    let bytes: Uint8Array;
    try {
      bytes = this.source.read(range.offset, range.length);
    } finally {
      // Snapshots have no close: the file is held open only while a chunk is read (the decoded cache spares
      // later reads), so no descriptor outlives the query.
      this.source.close();
    }
    return decodeColumnChunk(bytes, { meta, element: schema.element, schemaPath: schema.schemaPath, type }, rows);
  }
}

function exactNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'bigint') return value >= -(2n ** 53n) && value <= 2n ** 53n ? Number(value) : undefined;
  return undefined;
}
