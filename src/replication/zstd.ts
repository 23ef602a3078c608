// Zstandard from node:zlib, where this Node.js has it (22.15 and later, every 24 and 26): the only module that
// reaches it, through a typed view (the type declarations of the oldest supported line do not know it).
// Replication segments use it when present: on byte planes of column data, level 1 took 0.012 CPU s per 1M
// narrow rows against Brotli quality 1's 0.029, and its output was a third the size (probe on Node 24).
import * as zlib from 'node:zlib';
import { promisify } from 'node:util';

type ZstdOptions = { readonly params?: Readonly<Record<number, number>>; readonly chunkSize?: number };
type ZstdCallback = (error: Error | null, result: Buffer) => void;

interface ZlibWithZstd {
  readonly zstdCompressSync?: (data: Uint8Array, options?: ZstdOptions) => Buffer;
  readonly zstdDecompress?: (data: Uint8Array, options: ZstdOptions, callback: ZstdCallback) => void;
  readonly constants: { readonly ZSTD_c_compressionLevel?: number };
}

const withZstd = zlib as unknown as ZlibWithZstd;
const compressSync = withZstd.zstdCompressSync;
const decompressCallback = withZstd.zstdDecompress;
const levelParameter = withZstd.constants.ZSTD_c_compressionLevel;
const decompressAsync = decompressCallback === undefined ? undefined : promisify((data: Uint8Array, options: ZstdOptions, callback: ZstdCallback) => decompressCallback(data, options, callback));

/** Whether this Node.js compresses and decompresses Zstandard. */
export function hasZstd(): boolean {
  return compressSync !== undefined && decompressAsync !== undefined && levelParameter !== undefined;
}

/** Compresses at `level` in the calling thread; undefined when this Node.js has no Zstandard. */
export function zstdCompressSync(data: Uint8Array, level: number): Buffer | undefined {
  if (compressSync === undefined || levelParameter === undefined) return undefined;
  return compressSync(data, { params: { [levelParameter]: level } });
}

/** Decompresses off the event loop; undefined when this Node.js has no Zstandard. */
export function zstdDecompress(data: Uint8Array, chunkSize: number): Promise<Buffer> | undefined {
  return decompressAsync?.(data, { chunkSize });
}
