// Page compressors for every codec the Parquet writer emits, wired per shared/reference/parquet.md:
// SNAPPY from hyparquet-writer, GZIP/BROTLI from node:zlib, ZSTD from @bokuweb/zstd-wasm (needs
// loadParquetCodecs() once per thread), LZ4_RAW from svc's own block compressor (lz4-block.ts).
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import { compress as zstdCompress, init as zstdInit } from '@bokuweb/zstd-wasm';
import { snappyCompress } from 'hyparquet-writer/src/snappy.js';
import { assert, assertNever } from '../core/assert.js';
import { compressLz4Block } from './lz4-block.js';
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
    // One LZ4 block, no frame: what Parquet's LZ4_RAW means.
    case 'LZ4_RAW': return compressLz4Block;
    default: return assertNever(codec, 'parquet codec');
  }
}
