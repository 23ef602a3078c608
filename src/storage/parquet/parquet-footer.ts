// The footer of a Parquet file, parsed once per file and kept in a bounded process-wide cache keyed by the
// source's identity (files are immutable once written: a partition version's path never gets other bytes).
// Statistics of time columns are parsed to µs numbers so row groups can be pruned by timestamp intervals.
import type { FileMetaData, ParquetParsers, SchemaElement, SchemaTree } from 'hyparquet';
import { parquetMetadata, parquetSchema } from 'hyparquet';
import { StorageError } from '../../core/errors.js';
import { assert } from '../../core/assert.js';
import type { ByteRangeSource } from './byte-range-source.js';

const FOOTER_TAIL_BYTES = 8; // int32 footer length + "PAR1"
/** Footers kept per process; a footer is a few KiB, the cache bounds the count. */
export const parquetFooterCacheEntriesMax = 4096;

export interface ParquetLeaf {
  readonly name: string;
  readonly element: SchemaElement;
  readonly schemaPath: SchemaTree[];
}

export interface ParquetFooter {
  readonly metadata: FileMetaData;
  /** Flat (top-level, non-nested) columns in file order. */
  readonly leaves: readonly ParquetLeaf[];
  /** First row of each row group, plus the row count at the end (length = row groups + 1). */
  readonly rowGroupStarts: Float64Array;
  readonly rowCount: number;
  /** Key-value metadata of the file. */
  readonly keyValues: ReadonlyMap<string, string>;
}

/** Time statistics become µs numbers; everything else keeps hyparquet's parsing. */
const STATISTICS_PARSERS: Partial<ParquetParsers> = {
  timestampFromMicroseconds: (micros: bigint) => Number(micros),
  timestampFromMilliseconds: (millis: bigint) => Number(millis) * 1000,
  timestampFromNanoseconds: (nanos: bigint) => Number(nanos / 1000n),
  dateFromDays: (days: number) => days * 86_400_000_000,
};

const cache = new Map<string, ParquetFooter>();

export function parquetFooterOf(source: ByteRangeSource): ParquetFooter {
  const cached = cache.get(source.key);
  if (cached !== undefined) {
    cache.delete(source.key);
    cache.set(source.key, cached); // most recently used last
    return cached;
  }
  const footer = parseFooter(source);
  if (cache.size >= parquetFooterCacheEntriesMax) {
    const oldest = cache.keys().next().value;
    if (oldest !== undefined) cache.delete(oldest);
  }
  cache.set(source.key, footer);
  return footer;
}

function parseFooter(source: ByteRangeSource): ParquetFooter {
  const size = source.sizeBytes;
  if (size < 12) throw new StorageError(`not a parquet file: too short [source=${source.key}]`);
  const tail = source.read(size - FOOTER_TAIL_BYTES, FOOTER_TAIL_BYTES);
  const view = new DataView(tail.buffer, tail.byteOffset, tail.byteLength);
  if (view.getUint32(4, false) !== 0x50415231) throw new StorageError(`not a parquet file: no PAR1 magic at its end [source=${source.key}]`);
  const footerBytes = view.getUint32(0, true);
  if (footerBytes + FOOTER_TAIL_BYTES + 4 > size) throw new StorageError(`corrupt parquet footer length [source=${source.key}]`);
  const bytes = source.read(size - FOOTER_TAIL_BYTES - footerBytes, footerBytes + FOOTER_TAIL_BYTES);
  let metadata: FileMetaData;
  try {
    metadata = parquetMetadata(bytes, { parsers: STATISTICS_PARSERS, geoparquet: false });
  } catch (error) {
    throw new StorageError(`corrupt parquet footer [source=${source.key}, error=${(error as Error).message}]`);
  }
  const tree = parquetSchema(metadata);
  const leaves: ParquetLeaf[] = [];
  for (const child of tree.children) {
    if (child.children.length === 0) leaves.push({ name: child.element.name, element: child.element, schemaPath: [tree, child] });
  }
  const rowGroupStarts = new Float64Array(metadata.row_groups.length + 1);
  for (let g = 0; g < metadata.row_groups.length; g++) {
    rowGroupStarts[g + 1] = rowGroupStarts[g] + Number(metadata.row_groups[g]?.num_rows ?? 0n);
  }
  const rowCount = rowGroupStarts[metadata.row_groups.length];
  assert(rowCount === Number(metadata.num_rows) || metadata.row_groups.length === 0, 'row groups add up to the file row count');
  const keyValues = new Map((metadata.key_value_metadata ?? []).map((entry) => [entry.key, entry.value ?? '']));
  return { metadata, leaves, rowGroupStarts, rowCount, keyValues };
}

/** Index of the row group holding `row` (binary search over the group starts). */
export function rowGroupOf(footer: ParquetFooter, row: number): number {
  const starts = footer.rowGroupStarts;
  let lo = 0;
  let hi = starts.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (starts[mid] <= row) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The bytes of column `leafIndex` in row group `group`: dictionary page (if any) through the last data page. */
export function columnChunkRange(footer: ParquetFooter, group: number, leafIndex: number): { offset: number; length: number } {
  const meta = footer.metadata.row_groups[group]?.columns[leafIndex]?.meta_data;
  if (meta === undefined) throw new StorageError(`parquet column chunk has no metadata [group=${group}, column=${leafIndex}]`);
  const dictionary = meta.dictionary_page_offset;
  const start = Number(dictionary !== undefined && dictionary > 0n && dictionary < meta.data_page_offset ? dictionary : meta.data_page_offset);
  return { offset: start, length: Number(meta.total_compressed_size) };
}
