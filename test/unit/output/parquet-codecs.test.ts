// Page compressors and v2 value encodings, each checked by decoding with an independent implementation:
// node:zlib, zstd-wasm, an LZ4 block decoder of the tests' own, and hyparquet's (the reader) snappy, delta and
// split decoders.
import test from 'ava';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { decompress as zstdDecompress } from '@bokuweb/zstd-wasm';
import { snappyUncompress } from 'hyparquet/src/snappy.js';
import { deltaBinaryUnpack } from 'hyparquet/src/delta.js';
import { byteStreamSplit as readByteStreamSplit } from 'hyparquet/src/encoding.js';
import { createPageCompressor, loadParquetCodecs } from '../../../src/output/parquet-codecs.js';
import { byteStreamSplit, deltaBinaryPack } from '../../../src/output/parquet-encodings.js';
import { decodeLz4Block } from '../../helpers/lz4-block-decoder.js';

test.before(async () => {
  await loadParquetCodecs();
});

/** Deterministic bytes: a repetitive half (compressible) then a pseudo-random half (not). */
function samplePage(size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  let state = 12345;
  for (let k = 0; k < size; k++) {
    state = (Math.imul(state, 1103515245) + 12345) | 0;
    bytes[k] = k < size / 2 ? k % 7 : state >>> 24;
  }
  return bytes;
}

test('every codec’s output decodes back to the page', (t) => {
  const page = samplePage(100_000);
  const decoders: Record<string, (compressed: Uint8Array) => Uint8Array> = {
    SNAPPY: (compressed) => {
      const out = new Uint8Array(page.length);
      snappyUncompress(compressed, out);
      return out;
    },
    GZIP: (compressed) => gunzipSync(compressed),
    BROTLI: (compressed) => brotliDecompressSync(compressed),
    ZSTD: (compressed) => zstdDecompress(compressed),
    LZ4_RAW: (compressed) => decodeLz4Block(compressed, page.length),
  };
  for (const [codec, decode] of Object.entries(decoders)) {
    const compress = createPageCompressor(codec as 'SNAPPY', 6);
    if (compress === undefined) return t.fail(`${codec} has a compressor`);
    const compressed = compress(page);
    t.true(compressed.length < page.length, `${codec} shrinks a half-repetitive page`);
    t.deepEqual(Buffer.from(decode(compressed)), Buffer.from(page), codec);
  }
  t.is(createPageCompressor('UNCOMPRESSED', 0), undefined);
});

test('LZ4_RAW: an empty page (an all-null column chunk) still produces a block', (t) => {
  t.deepEqual(Array.from(createPageCompressor('LZ4_RAW', 0)?.(new Uint8Array(0)) ?? []), [0]);
});

function decodeDelta(bytes: Uint8Array, count: number, output: Int32Array | BigInt64Array): void {
  deltaBinaryUnpack({ view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), offset: 0 }, count, output);
}

test('DELTA_BINARY_PACKED: int32 (wrapping) and int64 values decode exactly, in partial and full blocks', (t) => {
  for (const count of [0, 1, 2, 31, 33, 128, 129, 1000]) {
    const ints = Int32Array.from({ length: count }, (_, k) => (k % 5 === 0 ? -2147483648 + k : k * 7919 - (k % 3) * 2147483647));
    const packed = deltaBinaryPack(new Uint8Array(ints.buffer), 4);
    if (packed === undefined) return t.fail('int32 values always pack');
    const decoded = new Int32Array(count);
    decodeDelta(packed, count, decoded);
    t.deepEqual(decoded, ints, `${count} int32 values`);

    const longs = BigInt64Array.from({ length: count }, (_, k) => 1704067200000000n + BigInt(k) * 100000n - (k % 4 === 0 ? 2n ** 51n : 0n));
    const longPacked = deltaBinaryPack(new Uint8Array(longs.buffer), 8);
    if (longPacked === undefined) return t.fail('deltas below 2^52 pack');
    const longDecoded = new BigInt64Array(count);
    decodeDelta(longPacked, count, longDecoded);
    t.deepEqual(longDecoded, longs, `${count} int64 values`);
  }
});

test('DELTA_BINARY_PACKED: declines values or deltas a double cannot hold exactly', (t) => {
  t.is(deltaBinaryPack(new Uint8Array(BigInt64Array.of(0n, 2n ** 60n).buffer), 8), undefined);
  t.is(deltaBinaryPack(new Uint8Array(BigInt64Array.of(-(2n ** 52n), 2n ** 52n).buffer), 8), undefined);
  t.not(deltaBinaryPack(new Uint8Array(BigInt64Array.of(-(2n ** 50n), 2n ** 50n).buffer), 8), undefined);
});

test('BYTE_STREAM_SPLIT: doubles and floats decode back', (t) => {
  const doubles = Float64Array.from({ length: 1001 }, (_, k) => (k - 500) / 3);
  const split = byteStreamSplit(new Uint8Array(doubles.buffer), 8);
  const reader = { view: new DataView(split.buffer, split.byteOffset, split.byteLength), offset: 0 };
  t.deepEqual(Array.from(readByteStreamSplit(reader, doubles.length, 'DOUBLE', undefined)), Array.from(doubles));
  const floats = Float32Array.from({ length: 77 }, (_, k) => k * 1.25);
  const floatSplit = byteStreamSplit(new Uint8Array(floats.buffer), 4);
  const floatReader = { view: new DataView(floatSplit.buffer, floatSplit.byteOffset, floatSplit.byteLength), offset: 0 };
  t.deepEqual(Array.from(readByteStreamSplit(floatReader, floats.length, 'FLOAT', undefined)), Array.from(floats));
});
