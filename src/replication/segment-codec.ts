// The replication object format: a list of file operations and the bytes they write, compressed and framed
// by a magic string and the SHA-256 of the compressed payload, so a truncated or altered object is refused
// before anything is applied. Segments (one or more commits) and checkpoint parts share it. SVCREPL2 objects
// are Brotli (quality 1: on column data it compresses faster than gzip level 1 and a third smaller; storing
// the payload uncompressed was measured and cost the running primary as much in bytes handled as it saved);
// SVCREPL1 (gzip), written by earlier primaries, is still read.
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, brotliDecompress, constants as zlibConstants, gunzip, type BrotliOptions } from 'node:zlib';
import { SvcError } from '../core/errors.js';
import { ACCOUNTS_PATH } from './tracked-files.js';

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

const MAGIC = Buffer.from('SVCREPL2');
const GZIP_MAGIC = Buffer.from('SVCREPL1');
const DIGEST_BYTES = 32;
const HEADER_LENGTH_BYTES = 4;
const brotliAsync = promisify(brotliCompress);
const unbrotliAsync = promisify(brotliDecompress);
const gunzipAsync = promisify(gunzip);

function brotliOptions(rawBytes: number): BrotliOptions {
  return { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 1, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: rawBytes } };
}

function corrupt(what: string, key: string): SvcError {
  return new SvcError('SVC_OBJECT_STORE', `replication object is corrupt: ${what} [key=${key}]`, 500);
}

/** The uncompressed start of an object: the header's length, then the header (the write bytes follow). */
export function segmentHeader(seq: number, operations: readonly FileOperation[]): Buffer {
  const header = Buffer.from(JSON.stringify({ format: 'svc-replication-segment', seq, operations }));
  const framed = Buffer.allocUnsafe(HEADER_LENGTH_BYTES + header.length);
  framed.writeUInt32LE(header.length, 0);
  header.copy(framed, HEADER_LENGTH_BYTES);
  return framed;
}

/** Magic and digest before the compressed payload, in one buffer that owns its memory (transferable). */
function frame(payload: Uint8Array): Buffer {
  const digest = createHash('sha256').update(payload).digest();
  const object = Buffer.allocUnsafeSlow(MAGIC.length + DIGEST_BYTES + payload.length);
  MAGIC.copy(object, 0);
  digest.copy(object, MAGIC.length);
  object.set(payload, MAGIC.length + DIGEST_BYTES);
  return object;
}

/**
 * Compresses and frames `raw` (segmentHeader, then the write bytes) in the calling thread: the segment
 * encoder thread's path. Quality 1: the primary's CPU matters more than the store's bytes.
 */
export function frameSegmentSync(raw: Uint8Array): Buffer {
  return frame(brotliCompressSync(raw, brotliOptions(raw.length)));
}

/** Compresses off the event loop (zlib's thread pool); the same object as frameSegmentSync. */
export async function encodeSegment(seq: number, operations: readonly FileOperation[], chunks: readonly Buffer[]): Promise<Buffer> {
  const raw = Buffer.concat([segmentHeader(seq, operations), ...chunks]);
  return frame(await brotliAsync(raw, brotliOptions(raw.length)));
}

export async function decodeSegment(object: Buffer, key: string): Promise<DecodedSegment> {
  const magic = object.subarray(0, MAGIC.length);
  const brotli = magic.equals(MAGIC);
  if (object.length < MAGIC.length + DIGEST_BYTES || !(brotli || magic.equals(GZIP_MAGIC))) throw corrupt('bad magic', key);
  const payload = object.subarray(MAGIC.length + DIGEST_BYTES);
  if (!createHash('sha256').update(payload).digest().equals(object.subarray(MAGIC.length, MAGIC.length + DIGEST_BYTES))) throw corrupt('checksum mismatch', key);
  const raw = brotli ? await unbrotliAsync(payload) : await gunzipAsync(payload);
  const headerLength = raw.readUInt32LE(0);
  const header: unknown = JSON.parse(raw.subarray(HEADER_LENGTH_BYTES, HEADER_LENGTH_BYTES + headerLength).toString('utf8'));
  const body = raw.subarray(HEADER_LENGTH_BYTES + headerLength);
  const parsed = parseHeader(header, key);
  const written = parsed.operations.reduce((sum, operation) => sum + (operation.op === 'write' ? operation.length : 0), 0);
  if (written !== body.length) throw corrupt(`operations write ${written} bytes, body holds ${body.length}`, key);
  return { ...parsed, body };
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

function parseHeader(value: unknown, key: string): { seq: number; operations: FileOperation[] } {
  if (!isRecord(value) || value['format'] !== 'svc-replication-segment' || !Number.isSafeInteger(value['seq']) || !Array.isArray(value['operations'])) {
    throw corrupt('malformed header', key);
  }
  return { seq: value['seq'] as number, operations: value['operations'].map((operation: unknown) => parseOperation(operation, key)) };
}
