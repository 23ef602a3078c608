// Decoded Parquet columns shared by every query of the process: a partition file never changes, so a column
// decoded once (fully, or row group by row group for fixed-width columns) serves later queries without
// decoding again. Bounded by bytes (least recently used entries go first); an entry a running query still holds
// stays valid for that query, the cache only forgets it.
import { parquetDecodedCacheBytesMax } from '../../core/limits.js';

export interface DecodedFixedColumn {
  readonly kind: 'fixed';
  /** rowCount × width bytes in storage form; only the row groups marked in `filled` hold data. */
  readonly bytes: Buffer;
  readonly filled: Uint8Array;
}

export interface DecodedVarColumn {
  readonly kind: 'var';
  readonly data: Buffer;
  /** rowCount + 1 int64 offsets, as a native `.i` file. */
  readonly index: Buffer;
}

export type DecodedColumn = DecodedFixedColumn | DecodedVarColumn;

const entries = new Map<string, DecodedColumn>();
let residentBytes = 0;

function sizeOf(column: DecodedColumn): number {
  return column.kind === 'fixed' ? column.bytes.length : column.data.length + column.index.length;
}

export function cachedColumn(key: string): DecodedColumn | undefined {
  const column = entries.get(key);
  if (column !== undefined) {
    entries.delete(key);
    entries.set(key, column);
  }
  return column;
}

export function cacheColumn(key: string, column: DecodedColumn): void {
  const previous = entries.get(key);
  if (previous !== undefined) {
    residentBytes -= sizeOf(previous);
    entries.delete(key);
  }
  const bytes = sizeOf(column);
  while (residentBytes + bytes > parquetDecodedCacheBytesMax && entries.size > 0) {
    const oldest = entries.keys().next().value;
    if (oldest === undefined) break;
    residentBytes -= sizeOf(entries.get(oldest) as DecodedColumn);
    entries.delete(oldest);
  }
  if (bytes > parquetDecodedCacheBytesMax) return; // larger than the whole budget: used once, not kept
  entries.set(key, column);
  residentBytes += bytes;
}

/** Bytes held by the cache (for tests and metrics). */
export function decodedCacheBytes(): number {
  return residentBytes;
}
