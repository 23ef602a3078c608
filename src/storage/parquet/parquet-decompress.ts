// Page decompressors handed to hyparquet for the codecs it does not carry itself (it decodes SNAPPY alone):
// LZ4_RAW (our block decoder), ZSTD (@bokuweb/zstd-wasm, loaded once per process by loadParquetCodecs), GZIP
// and BROTLI (node:zlib). Every codec the /exp writer and the partition encoder emit can be read back.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { decompress as zstdDecompress } from '@bokuweb/zstd-wasm';
import type { Compressors } from 'hyparquet';
import { StorageError } from '../../core/errors.js';
import { decompressLz4Block } from './lz4-block-decode.js';

function zstd(input: Uint8Array): Uint8Array {
  try {
    return zstdDecompress(input);
  } catch (error) {
    // The WebAssembly module is loaded at process start (loadParquetCodecs); a failure here is a corrupt page.
    throw new StorageError(`could not decompress a ZSTD parquet page [error=${(error as Error).message}]`);
  }
}

export const PARQUET_DECOMPRESSORS: Compressors = {
  LZ4_RAW: (input, outputLength) => decompressLz4Block(input, outputLength),
  ZSTD: (input) => zstd(input),
  GZIP: (input) => new Uint8Array(gunzipSync(input)),
  BROTLI: (input) => new Uint8Array(brotliDecompressSync(input)),
};
