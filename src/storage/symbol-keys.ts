// SYMBOL text records → dictionary keys, for inserts and adopted import partitions. Decoding a short string
// and looking it up costs a few hundred ns per row, and symbol columns repeat a few values millions of
// times, so records are first looked up by their bytes in a small hash table of values already seen in
// this call; only a miss builds the string. The table lives for one call, so a rolled-back key never leaks.
import type { VarColumnData } from './row-chunk.js';

/**
 * Entries of the per-call byte cache (powers of two): at most CACHE_ENTRIES_MAX, else twice the rows rounded up,
 * at least CACHE_ENTRIES_MIN; and the longest value it holds. A commit of a few rows (a group of single-row
 * INSERTs) allocated and filled the full 80 KB of tables, ~200 µs, for a handful of lookups.
 */
const CACHE_ENTRIES_MAX = 4096;
const CACHE_ENTRIES_MIN = 16;
const CACHE_VALUE_BYTES_MAX = 64;

function cacheEntriesFor(rowCount: number): number {
  let entries = CACHE_ENTRIES_MIN;
  while (entries < rowCount * 2 && entries < CACHE_ENTRIES_MAX) entries *= 2;
  return entries;
}

/** Keys (int32 little-endian, -1 for null) of every record of a text column. */
export function symbolKeysOf(text: VarColumnData, keyOf: (value: string) => number): Buffer {
  const rowCount = text.offsets.length - 1;
  const bytes = text.bytes;
  const offsets = text.offsets;
  const keys = new Int32Array(rowCount);
  const cacheEntries = cacheEntriesFor(rowCount);
  const cachedHash = new Int32Array(cacheEntries);
  const cachedKey = new Int32Array(cacheEntries).fill(-1);
  const cachedStart = new Float64Array(cacheEntries);
  const cachedLength = new Int32Array(cacheEntries);
  for (let row = 0; row < rowCount; row++) {
    const start = offsets[row];
    const length = bytes.readInt32LE(start);
    if (length < 0) {
      keys[row] = -1;
      continue;
    }
    const from = start + 4;
    if (length > CACHE_VALUE_BYTES_MAX) {
      keys[row] = keyOf(bytes.toString('utf8', from, from + length));
      continue;
    }
    // FNV-1a over the value's bytes; a hit must also match byte for byte (cached values live in `bytes`).
    let hash = -2128831035;
    for (let i = from; i < from + length; i++) hash = Math.imul(hash ^ bytes[i], 16777619);
    const slot = (hash ^ (hash >>> 15)) & (cacheEntries - 1);
    const key = cachedKey[slot];
    if (key >= 0 && cachedHash[slot] === hash && cachedLength[slot] === length && sameBytes(bytes, cachedStart[slot], from, length)) {
      keys[row] = key;
      continue;
    }
    const found = keyOf(bytes.toString('utf8', from, from + length));
    cachedHash[slot] = hash;
    cachedKey[slot] = found;
    cachedStart[slot] = from;
    cachedLength[slot] = length;
    keys[row] = found;
  }
  return Buffer.from(keys.buffer, keys.byteOffset, keys.byteLength);
}

function sameBytes(bytes: Uint8Array, a: number, b: number, length: number): boolean {
  for (let i = 0; i < length; i++) if (bytes[a + i] !== bytes[b + i]) return false;
  return true;
}
