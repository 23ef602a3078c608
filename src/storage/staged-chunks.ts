// Row chunks handed from a worker to the primary through a file under db/.staging/ instead of the IPC channel
// (which serialises as JSON): the worker writes the column bytes once, the IPC message carries only where each
// column is, and the primary reads the file back into buffers it slices without copying. The file is not
// fsynced: the primary's WAL record is the durable copy, and the worker is answered only after it.
import * as fs from 'node:fs';
import { assert } from '../core/assert.js';
import { StorageError } from '../core/errors.js';
import { realFiles } from '../core/files.js';
import type { VarColumnData } from './row-chunk.js';
import { assertIncomingChunk, type IncomingChunk, type IncomingColumnData } from './symbol-ids.js';

/** Where one column of a staged chunk is in the file. Offsets are 8-aligned so Float64Array views fit. */
export type StagedColumnRef =
  | { readonly kind: 'fixed'; readonly width: number; readonly offset: number; readonly sizeBytes: number }
  | { readonly kind: 'var'; readonly offset: number; readonly sizeBytes: number; readonly offsetsOffset: number }
  /** SYMBOL ids (rowCount int32) at idsOffset, and their dictionary's `entries` records as a var column. */
  | { readonly kind: 'symbolIds'; readonly idsOffset: number; readonly entries: number; readonly offset: number; readonly sizeBytes: number; readonly offsetsOffset: number };

export interface StagedChunkRef {
  readonly rowCount: number;
  readonly columns: readonly StagedColumnRef[];
}

function aligned(position: number): number {
  return (position + 7) & ~7;
}

/**
 * Writes row chunks from the start of a file, part after part; each append returns where its columns went. The
 * file is not cut: a reused one (ilp/staged-file-pool.ts) keeps its old bytes past `sizeBytes`, which the
 * reader never reads.
 */
export class StagedChunksWriter {
  private fd: number | undefined;
  private position = 0;

  constructor(readonly path: string) {}

  append(chunks: readonly IncomingChunk[]): StagedChunkRef[] {
    const parts: Uint8Array[] = [];
    const from = this.position;
    const place = (bytes: Uint8Array): number => {
      const start = aligned(this.position);
      if (start > this.position) parts.push(new Uint8Array(start - this.position));
      parts.push(bytes);
      this.position = start + bytes.length;
      return start;
    };
    const refs = chunks.map((chunk): StagedChunkRef => {
      assertIncomingChunk(chunk, 'staging a chunk');
      return { rowCount: chunk.rowCount, columns: chunk.columns.map((column) => placeColumn(column, place)) };
    });
    // No O_TRUNC: cutting a reused file would hand its pages back, and new ones cost more to write than old ones.
    this.fd ??= fs.openSync(this.path, fs.constants.O_WRONLY | fs.constants.O_CREAT);
    // One gathering write of the builders' own buffers: copying them into one buffer first was 3% of a worker's time.
    realFiles.writeParts(this.fd, parts, from);
    return refs;
  }

  /** Bytes written: what the reader reads (readStagedChunks). */
  get sizeBytes(): number {
    return this.position;
  }

  close(): void {
    if (this.fd !== undefined) fs.closeSync(this.fd);
    this.fd = undefined;
  }

  /** Closes and deletes the file (nothing was committed from it). */
  discard(): void {
    this.close();
    fs.rmSync(this.path, { force: true });
  }
}

function placeColumn(column: IncomingColumnData, place: (bytes: Uint8Array) => number): StagedColumnRef {
  if (column.kind === 'fixed') return { kind: 'fixed', width: column.width, offset: place(column.bytes), sizeBytes: column.bytes.length };
  if (column.kind === 'symbolIds') {
    const idsOffset = place(column.ids);
    return { kind: 'symbolIds', idsOffset, entries: column.dictionary.offsets.length - 1, ...placeVar(column.dictionary, place) };
  }
  return { kind: 'var', ...placeVar(column, place) };
}

function placeVar(column: VarColumnData, place: (bytes: Uint8Array) => number): { offset: number; sizeBytes: number; offsetsOffset: number } {
  const offset = place(column.bytes);
  const offsetsOffset = place(new Uint8Array(column.offsets.buffer, column.offsets.byteOffset, column.offsets.byteLength));
  return { offset, sizeBytes: column.bytes.length, offsetsOffset };
}

/**
 * Reads the first `sizeBytes` of a staged file (all of it when undefined) back as the chunks `refs` describe;
 * every reference is checked against that size. `allocate` gives the memory the chunks are views of (the
 * primary reuses its own: core/turn-memory.ts).
 */
export function readStagedChunks(path: string, refs: readonly StagedChunkRef[], allocate: (bytes: number) => Buffer = ownBuffer, sizeBytes?: number): IncomingChunk[] {
  const fileBytes = fs.statSync(path).size;
  if (sizeBytes !== undefined && (!Number.isSafeInteger(sizeBytes) || sizeBytes < 0 || sizeBytes > fileBytes)) {
    throw new StorageError(`staged chunk file holds ${fileBytes} bytes, the request says ${sizeBytes} [path=${path}]`);
  }
  const size = sizeBytes ?? fileBytes;
  const bytes = allocate(size);
  assert(bytes.length === size && bytes.byteOffset % 8 === 0, 'staged chunks are read into memory of their size, 8-aligned for their views');
  const fd = fs.openSync(path, 'r');
  try {
    let read = 0;
    while (read < size) {
      const n = fs.readSync(fd, bytes, read, size - read, read);
      if (n === 0) throw new StorageError(`staged chunk file is shorter than expected [path=${path}]`);
      read += n;
    }
  } finally {
    fs.closeSync(fd);
  }
  return refs.map((ref) => {
    const chunk: IncomingChunk = { rowCount: ref.rowCount, columns: ref.columns.map((column) => columnOf(bytes, column, ref.rowCount, path)) };
    assertIncomingChunk(chunk, 'reading a staged chunk');
    return chunk;
  });
}

/** Not from the shared pool: the buffer must start at offset 0 of its own memory for aligned views. */
function ownBuffer(bytes: number): Buffer {
  return Buffer.allocUnsafeSlow(bytes);
}

function columnOf(bytes: Buffer, ref: StagedColumnRef, rowCount: number, path: string): IncomingColumnData {
  const end = ref.offset + ref.sizeBytes;
  if (ref.offset < 0 || end > bytes.length) throw new StorageError(`staged chunk reference out of the file [path=${path}]`);
  if (ref.kind === 'fixed') {
    assert(ref.sizeBytes === rowCount * ref.width, 'a staged fixed column holds rowCount values');
    return { kind: 'fixed', width: ref.width, bytes: bytes.subarray(ref.offset, end) };
  }
  if (ref.kind === 'var') return { kind: 'var', bytes: bytes.subarray(ref.offset, end), offsets: offsetsOf(bytes, ref.offsetsOffset, rowCount, path) };
  const idsEnd = ref.idsOffset + rowCount * 4;
  if (ref.idsOffset < 0 || ref.idsOffset % 4 !== 0 || idsEnd > bytes.length) throw new StorageError(`staged chunk ids out of the file [path=${path}]`);
  const dictionary: VarColumnData = { kind: 'var', bytes: bytes.subarray(ref.offset, end), offsets: offsetsOf(bytes, ref.offsetsOffset, ref.entries, path) };
  return { kind: 'symbolIds', ids: bytes.subarray(ref.idsOffset, idsEnd), dictionary };
}

/** The `records` + 1 record offsets of a var column at `at`. */
function offsetsOf(bytes: Buffer, at: number, records: number, path: string): Float64Array {
  const offsetsEnd = at + (records + 1) * 8;
  if (at < 0 || at % 8 !== 0 || offsetsEnd > bytes.length) throw new StorageError(`staged chunk offsets out of the file [path=${path}]`);
  return new Float64Array(bytes.buffer, bytes.byteOffset + at, records + 1);
}
