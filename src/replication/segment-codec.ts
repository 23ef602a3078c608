// The replication object format: a list of file operations and the bytes they write, compressed and framed
// with a SHA-256, so a truncated or altered object is refused before anything is applied. Segments (one or
// more commits) and checkpoint parts share it. Written now: magic, payload, then the SHA-256 of magic and
// payload; the header gives each write a value width, and bytes written with a width above 1 are stored as
// byte planes (byte-planes.ts: fixed-width column data compresses about 18x instead of 4.7x, at less CPU).
// The payload is Zstandard level 1 (SVCREPL5) where this Node.js has it (zstd.ts: 22.15 and later), else
// Brotli quality 1 (SVCREPL4); a replica reads both, and says so when it cannot decompress Zstandard. The
// digest trails the payload so the hash that computes it, continued over the digest, is the whole object's
// SHA-256, which an S3 PUT signs: the object is hashed once. Older formats are still read: SVCREPL2 (digest
// of the payload first, then Brotli, no planes) and SVCREPL1 (the same, gzip). Storing the payload
// uncompressed was measured and cost the running primary as much in bytes handled as it saved.
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, brotliDecompress, constants as zlibConstants, gunzip, type BrotliOptions } from 'node:zlib';
import { SvcError } from '../core/errors.js';
import { ACCOUNTS_PATH } from './tracked-files.js';
import { fromBytePlanes, isPlanedWidth } from './byte-planes.js';
import { zstdCompressSync, zstdDecompress } from './zstd.js';

/** Writes `length` bytes at `offset`; `whole` replaces the file atomically (temporary file, then rename). */
export interface WriteOperation { readonly op: 'write'; readonly path: string; readonly offset: number; readonly length: number; readonly whole: boolean }
/**
 * Creates `path` (a path the replica does not have yet) from the first `length` bytes of `from` (a file it
 * has): a new partition version starts with its previous version's rows, so only its tail is shipped.
 */
export interface CopyOperation { readonly op: 'copy'; readonly from: string; readonly path: string; readonly length: number }
export interface DeleteOperation { readonly op: 'delete'; readonly path: string }
/** Checkpoints only: every tracked file not listed goes (a replica re-syncing over an older state). */
export interface PruneOperation { readonly op: 'prune'; readonly keep: readonly string[] }
export type FileOperation = WriteOperation | CopyOperation | DeleteOperation | PruneOperation;

export interface DecodedSegment {
  readonly seq: number;
  readonly operations: readonly FileOperation[];
  /** The bytes of the write operations, concatenated in operation order. */
  readonly body: Buffer;
}

/** Written by a Node.js without Zstandard, and by encodeSegment: magic, Brotli payload, SHA-256 of both. */
const MAGIC = Buffer.from('SVCREPL4');
/** Written by the encoder thread where this Node.js has Zstandard: magic, Zstandard payload, SHA-256 of both. */
const ZSTD_MAGIC = Buffer.from('SVCREPL5');
/** Zstandard's fastest regular level: the primary's CPU matters more than the store's bytes. */
const ZSTD_LEVEL = 1;
/** Read only: magic, SHA-256 of the payload, Brotli (SVCREPL2) or gzip (SVCREPL1) payload, no planes. */
const BROTLI_DIGEST_FIRST_MAGIC = Buffer.from('SVCREPL2');
const GZIP_DIGEST_FIRST_MAGIC = Buffer.from('SVCREPL1');
const DIGEST_BYTES = 32;
const HEADER_LENGTH_BYTES = 4;
const INFLATE_RATIO_ASSUMED = 32;
const INFLATE_CHUNK_BYTES_MIN = 64 * 1024;
/** An object's raw bytes are at most a part (64 MiB) and its header. */
const INFLATE_CHUNK_BYTES_MAX = 65 * 1024 * 1024;
const brotliAsync = promisify(brotliCompress);
const unbrotliAsync = promisify(brotliDecompress);
const gunzipAsync = promisify(gunzip);

/** A framed object and the hex SHA-256 of all its bytes (what an S3 PUT signs as its payload hash). */
export interface FramedObject { readonly object: Buffer; readonly sha256Hex: string }

function brotliOptions(rawBytes: number): BrotliOptions {
  return { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 1, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: rawBytes } };
}

/**
 * Output chunk size for decompressing `compressedBytes`: room for the whole object in one chunk at the
 * compression segments reach (byte planes: about 18x), so zlib hands back that chunk instead of gathering
 * 16 KiB chunks (its default) and copying them into one buffer (a decode's largest cost on a replica after the
 * decompression itself). A better-compressed object takes a few chunks, as before.
 */
function inflateChunkBytes(compressedBytes: number): number {
  return Math.min(INFLATE_CHUNK_BYTES_MAX, Math.max(INFLATE_CHUNK_BYTES_MIN, compressedBytes * INFLATE_RATIO_ASSUMED));
}

function corrupt(what: string, key: string): SvcError {
  return new SvcError('SVC_OBJECT_STORE', `replication object is corrupt: ${what} [key=${key}]`, 500);
}

/**
 * The uncompressed start of an object: the header's length, then the header (the write bytes follow).
 * `valueBytes` has one entry per write operation: the width its bytes are stored as byte planes by (1: as they are).
 */
export function segmentHeader(seq: number, operations: readonly FileOperation[], valueBytes: readonly number[]): Buffer {
  const header = Buffer.from(JSON.stringify({ format: 'svc-replication-segment', seq, operations, valueBytes }));
  const framed = Buffer.allocUnsafe(HEADER_LENGTH_BYTES + header.length);
  framed.writeUInt32LE(header.length, 0);
  header.copy(framed, HEADER_LENGTH_BYTES);
  return framed;
}

/** Magic, payload, digest in one buffer that owns its memory (transferable); one pass of SHA-256 over the payload. */
function frame(payload: Uint8Array, allocate: (bytes: number) => Buffer = Buffer.allocUnsafeSlow, magic: Buffer = MAGIC): FramedObject {
  const hash = createHash('sha256').update(magic).update(payload);
  const digest = hash.copy().digest();
  const sha256Hex = hash.update(digest).digest('hex');
  const object = allocate(magic.length + payload.length + DIGEST_BYTES);
  magic.copy(object, 0);
  object.set(payload, magic.length);
  digest.copy(object, magic.length + payload.length);
  return { object, sha256Hex };
}

/**
 * Compresses and frames `raw` (segmentHeader, then the write bytes) in the calling thread: the segment
 * encoder thread's path. Zstandard where this Node.js has it, else Brotli; the fastest levels of both: the
 * primary's CPU matters more than the store's bytes. The object is built in a SharedArrayBuffer, which the
 * thread posts to the primary without a transfer: detaching a buffer would make V8 recompile the thread's
 * byte-plane loops with a detach check per access.
 */
export function frameSegmentSync(raw: Uint8Array): FramedObject {
  const shared = (bytes: number): Buffer => Buffer.from(new SharedArrayBuffer(bytes));
  const zstd = zstdCompressSync(raw, ZSTD_LEVEL);
  return zstd === undefined ? frame(brotliCompressSync(raw, brotliOptions(raw.length)), shared) : frame(zstd, shared, ZSTD_MAGIC);
}

/** Compresses off the event loop (zlib's thread pool), bytes as they are (no planes); the same format as frameSegmentSync. */
export async function encodeSegment(seq: number, operations: readonly FileOperation[], chunks: readonly Buffer[]): Promise<Buffer> {
  const writes = operations.filter((operation) => operation.op === 'write').length;
  const raw = Buffer.concat([segmentHeader(seq, operations, new Array<number>(writes).fill(1)), ...chunks]);
  return frame(await brotliAsync(raw, brotliOptions(raw.length))).object;
}

/** The checked, decompressed content of an object of any format this version reads. */
async function openObject(object: Buffer, key: string): Promise<{ raw: Buffer; planed: boolean }> {
  const magic = object.subarray(0, MAGIC.length);
  if (object.length < MAGIC.length + DIGEST_BYTES) throw corrupt('too short', key);
  const zstd = magic.equals(ZSTD_MAGIC);
  if (zstd || magic.equals(MAGIC)) {
    const end = object.length - DIGEST_BYTES;
    if (!createHash('sha256').update(object.subarray(0, end)).digest().equals(object.subarray(end))) throw corrupt('checksum mismatch', key);
    const payload = object.subarray(MAGIC.length, end);
    const chunkSize = inflateChunkBytes(payload.length);
    if (!zstd) return { raw: await unbrotliAsync(payload, { chunkSize }), planed: true };
    const decompressed = zstdDecompress(payload, chunkSize);
    if (decompressed === undefined) {
      throw new SvcError('SVC_OBJECT_STORE', `replication object is compressed with Zstandard, which this Node.js (${process.version}) cannot decompress: run the replica on Node.js 22.15 or later, as its primary [key=${key}]`, 500);
    }
    return { raw: await decompressed, planed: true };
  }
  const brotli = magic.equals(BROTLI_DIGEST_FIRST_MAGIC);
  if (!brotli && !magic.equals(GZIP_DIGEST_FIRST_MAGIC)) throw corrupt(`bad magic (a newer primary's format? upgrade replicas first) ${JSON.stringify(magic.toString('latin1'))}`, key);
  const payload = object.subarray(MAGIC.length + DIGEST_BYTES);
  if (!createHash('sha256').update(payload).digest().equals(object.subarray(MAGIC.length, MAGIC.length + DIGEST_BYTES))) throw corrupt('checksum mismatch', key);
  return { raw: brotli ? await unbrotliAsync(payload) : await gunzipAsync(payload), planed: false };
}

export async function decodeSegment(object: Buffer, key: string): Promise<DecodedSegment> {
  const { raw, planed } = await openObject(object, key);
  const headerLength = raw.readUInt32LE(0);
  const header: unknown = JSON.parse(raw.subarray(HEADER_LENGTH_BYTES, HEADER_LENGTH_BYTES + headerLength).toString('utf8'));
  const body = raw.subarray(HEADER_LENGTH_BYTES + headerLength);
  const parsed = parseHeader(header, key, planed);
  const written = parsed.operations.reduce((sum, operation) => sum + (operation.op === 'write' ? operation.length : 0), 0);
  if (written !== body.length) throw corrupt(`operations write ${written} bytes, body holds ${body.length}`, key);
  interleaveWrites(parsed.operations, parsed.valueBytes, body);
  return { seq: parsed.seq, operations: parsed.operations, body };
}

/**
 * Interleaved bytes of a write before they go back over its planes: kept between segments up to this size,
 * since a fresh buffer per segment cost a replica a page fault per 4 KiB it filled. Larger writes (checkpoint
 * parts) get a buffer of their own, so no more than this stays held.
 */
const INTERLEAVE_SCRATCH_BYTES_MAX = 16 * 1024 * 1024;
let interleaveScratch: Buffer = Buffer.allocUnsafeSlow(0);

/** `bytes` of 4-byte aligned scratch for interleaveWrites; valid until the next call. */
function interleaveScratchOf(bytes: number): Buffer {
  if (bytes > INTERLEAVE_SCRATCH_BYTES_MAX) return Buffer.allocUnsafeSlow(bytes);
  if (interleaveScratch.length < bytes) interleaveScratch = Buffer.allocUnsafeSlow(Math.min(INTERLEAVE_SCRATCH_BYTES_MAX, Math.max(bytes, interleaveScratch.length * 2)));
  return interleaveScratch.subarray(0, bytes);
}

/** Turns the byte planes of writes stored with a width back into the file's bytes, in place. */
function interleaveWrites(operations: readonly FileOperation[], valueBytes: readonly number[], body: Buffer): void {
  let at = 0;
  let write = 0;
  for (const operation of operations) {
    if (operation.op !== 'write') continue;
    const width = valueBytes[write++] ?? 1;
    if (width > 1) {
      const scratch = interleaveScratchOf(operation.length);
      const planes = body.subarray(at, at + operation.length);
      fromBytePlanes(planes, width, scratch);
      planes.set(scratch);
    }
    at += operation.length;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/**
 * Paths are relative, inside the root, and only where replication writes: under db/ or the service-accounts
 * file; no absolute path, no `..`, `.` or empty component. A store cannot make a replica write elsewhere.
 */
export function isSafeRelativePath(path: unknown): path is string {
  if (typeof path !== 'string' || !(path.startsWith('db/') || path === ACCOUNTS_PATH)) return false;
  return !path.includes('\\') && path.split('/').every((part) => part !== '' && part !== '.' && part !== '..');
}

function parseOperation(value: unknown, key: string): FileOperation {
  if (!isRecord(value)) throw corrupt('operation is not an object', key);
  if (value['op'] === 'write' && isSafeRelativePath(value['path']) && Number.isSafeInteger(value['offset']) && Number.isSafeInteger(value['length'])
    && typeof value['whole'] === 'boolean' && (value['offset'] as number) >= 0 && (value['length'] as number) >= 0) {
    return { op: 'write', path: value['path'], offset: value['offset'] as number, length: value['length'] as number, whole: value['whole'] };
  }
  if (value['op'] === 'copy' && isSafeRelativePath(value['from']) && isSafeRelativePath(value['path']) && Number.isSafeInteger(value['length']) && (value['length'] as number) >= 0) {
    return { op: 'copy', from: value['from'], path: value['path'], length: value['length'] as number };
  }
  if (value['op'] === 'delete' && isSafeRelativePath(value['path'])) return { op: 'delete', path: value['path'] };
  const keep = value['keep'];
  if (value['op'] === 'prune' && Array.isArray(keep) && keep.every(isSafeRelativePath)) return { op: 'prune', keep };
  throw corrupt(`malformed operation ${JSON.stringify(value).slice(0, 200)}`, key);
}

function parseHeader(value: unknown, key: string, planed: boolean): { seq: number; operations: FileOperation[]; valueBytes: number[] } {
  if (!isRecord(value) || value['format'] !== 'svc-replication-segment' || !Number.isSafeInteger(value['seq']) || !Array.isArray(value['operations'])) {
    throw corrupt('malformed header', key);
  }
  const operations = value['operations'].map((operation: unknown) => parseOperation(operation, key));
  const writes = operations.filter((operation) => operation.op === 'write').length;
  if (!planed) return { seq: value['seq'] as number, operations, valueBytes: new Array<number>(writes).fill(1) };
  const valueBytes = value['valueBytes'];
  if (!Array.isArray(valueBytes) || valueBytes.length !== writes || !valueBytes.every((width: unknown) => width === 1 || (typeof width === 'number' && isPlanedWidth(width)))) {
    throw corrupt('malformed value widths', key);
  }
  return { seq: value['seq'] as number, operations, valueBytes };
}
