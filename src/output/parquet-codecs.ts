// Page compressors for every codec the Parquet writer emits, wired per shared/reference/parquet.md:
// SNAPPY from hyparquet-writer, GZIP/BROTLI from node:zlib, ZSTD from @bokuweb/zstd-wasm (needs
// loadParquetCodecs() once per thread), LZ4_RAW from the `lz4` block encoder with a literal-only fallback.
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import { compress as zstdCompress, init as zstdInit } from '@bokuweb/zstd-wasm';
import lz4 from 'lz4';
import { snappyCompress } from 'hyparquet-writer/src/snappy.js';
import { assert, assertNever } from '../core/assert.js';
import type { ParquetWrittenCodec } from './parquet-params.js';

export type PageCompressor = (input: Uint8Array) => Uint8Array;

let zstdReady: Promise<void> | undefined;
let zstdLoaded = false;

/** Loads the ZSTD WebAssembly module of this thread; later calls share the first load. */
export function loadParquetCodecs(): Promise<void> {
  zstdReady ??= zstdInit().then(() => {
    zstdLoaded = true;
  });
  return zstdReady;
}

/** Returns the compressor for a codec, or undefined for UNCOMPRESSED (pages are written as they are). */
export function createPageCompressor(codec: ParquetWrittenCodec, level: number): PageCompressor | undefined {
  switch (codec) {
    case 'UNCOMPRESSED': return undefined;
    case 'SNAPPY': return snappyCompress;
    case 'GZIP': return (input) => gzipSync(input, { level });
    case 'BROTLI':
      return (input) => brotliCompressSync(input, {
        params: { [zlibConstants.BROTLI_PARAM_QUALITY]: level, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: input.length },
      });
    case 'ZSTD':
      assert(zstdLoaded, 'loadParquetCodecs() must finish before a ZSTD writer is created');
      return (input) => zstdCompress(input, level);
    case 'LZ4_RAW': return compressLz4Raw;
    default: return assertNever(codec, 'parquet codec');
  }
}

/**
 * One LZ4 block, no frame: what Parquet's LZ4_RAW means. The encoder answers 0 when the block would not shrink;
 * a block of nothing but literals is always valid, so that case (and empty input) falls back to one.
 */
function compressLz4Raw(input: Uint8Array): Uint8Array {
  if (input.length === 0) return literalOnlyLz4Block(input);
  const source = Buffer.from(input.buffer, input.byteOffset, input.length);
  const output = Buffer.allocUnsafe(lz4.encodeBound(input.length));
  const size = lz4.encodeBlock(source, output);
  return size > 0 ? output.subarray(0, size) : literalOnlyLz4Block(input);
}

/** A single LZ4 sequence: token with the literal length (15 + 255-byte extension bytes), then the bytes. */
export function literalOnlyLz4Block(input: Uint8Array): Uint8Array {
  const length = input.length;
  const extensionBytes = length >= 15 ? Math.floor((length - 15) / 255) + 1 : 0;
  const block = new Uint8Array(1 + extensionBytes + length);
  block[0] = Math.min(length, 15) << 4;
  let at = 1;
  if (length >= 15) {
    let rest = length - 15;
    for (; rest >= 255; rest -= 255) block[at++] = 255;
    block[at++] = rest;
  }
  block.set(input, at);
  assert(at + length === block.length, 'literal-only LZ4 block size matches its computed length');
  return block;
}
