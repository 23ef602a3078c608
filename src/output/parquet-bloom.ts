// Split-block bloom filter of one column chunk, over the xxhash64 of each distinct value's PLAIN bytes (the
// Parquet BloomFilter.md rule). Values are deduplicated with cheap JS keys before hashing, because xxhash64 is
// BigInt arithmetic in JS. Sizing and insertion reuse hyparquet-writer's SBBF code.
import { optimalNumBytes, sbbfInsert } from 'hyparquet-writer/src/bloom.js';
import { xxhash64 } from 'hyparquet/src/xxhash.js';
import { assert } from '../core/assert.js';
import type { ChunkValues } from './parquet-chunk-values.js';

/** Largest filter per column chunk, parquet-mr's default cap; past it the false-positive rate rises instead. */
export const bloomFilterBytesMax = 1 << 20;

/** Returns the filter words, or undefined when the chunk has no value to put in one (all null, or BOOLEAN). */
export function buildBloomFilter(values: ChunkValues, fpp: number): Uint32Array | undefined {
  const distinct = distinctValues(values);
  if (distinct.length === 0) return undefined;
  let numBytes = optimalNumBytes(distinct.length, fpp);
  while (numBytes > bloomFilterBytesMax) numBytes >>= 1;
  const blocks = new Uint32Array(numBytes >> 2);
  for (const bytes of distinct) sbbfInsert(blocks, xxhash64(bytes));
  return blocks;
}

function distinctValues(values: ChunkValues): Uint8Array[] {
  switch (values.layout) {
    case 'bits': return [];
    case 'dictionary': return recordValues(values.dictionary.bytes, values.dictionary.offsets, values.dictionary.offsets.length - 1);
    case 'variable': return distinctRecords(values.bytes, values.offsets);
    case 'fixed': return distinctFixed(values.bytes, values.width);
  }
}

function recordValues(bytes: Uint8Array, offsets: Int32Array, count: number): Uint8Array[] {
  const result = new Array<Uint8Array>(count);
  for (let i = 0; i < count; i++) result[i] = bytes.subarray(offsets[i] + 4, offsets[i + 1]);
  return result;
}

function distinctRecords(bytes: Uint8Array, offsets: Int32Array): Uint8Array[] {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  const seen = new Set<string>();
  const result: Uint8Array[] = [];
  for (let i = 0; i + 1 < offsets.length; i++) {
    // latin1 maps every byte to one character, so equal keys mean equal bytes.
    const key = text.toString('latin1', offsets[i] + 4, offsets[i + 1]);
    if (seen.has(key)) continue;
    seen.add(key);
    result.push(bytes.subarray(offsets[i] + 4, offsets[i + 1]));
  }
  return result;
}

function distinctFixed(bytes: Uint8Array, width: number): Uint8Array[] {
  const count = bytes.length / width;
  assert(Number.isInteger(count) && bytes.byteOffset % Math.min(width, 8) === 0, 'fixed-width values are whole and aligned');
  const seen = new Set<number | string>();
  const result: Uint8Array[] = [];
  const ints = width === 4 ? new Int32Array(bytes.buffer, bytes.byteOffset, count) : undefined;
  const doubles = width === 8 ? new Float64Array(bytes.buffer, bytes.byteOffset, count) : undefined;
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  for (let i = 0; i < count; i++) {
    let key: number | string;
    if (ints !== undefined) key = ints[i];
    else if (doubles !== undefined && doubles[i] === doubles[i] && doubles[i] !== 0) key = doubles[i];
    // NaN payloads and ±0 share a number key but not their bits, so those (and UUIDs) are keyed by their bytes.
    else key = text.toString('latin1', i * width, i * width + width);
    if (seen.has(key)) continue;
    seen.add(key);
    result.push(bytes.subarray(i * width, i * width + width));
  }
  return result;
}
