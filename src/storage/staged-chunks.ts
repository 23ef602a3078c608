// Row chunks handed from a worker to the primary through a file under db/.staging/ instead of the IPC channel
// (which serialises as JSON): the worker writes the column bytes once, the IPC message carries only where each
// column is, and the primary reads the file back into buffers it slices without copying. The file is not
// fsynced: the primary's WAL record is the durable copy, and the worker is answered only after it.
import * as fs from 'node:fs';
import { assert } from '../core/assert.js';
import { StorageError } from '../core/errors.js';
import type { ColumnData, RowChunk } from './row-chunk.js';
import { assertChunk } from './row-chunk.js';

/** Where one column of a staged chunk is in the file. Offsets are 8-aligned so Float64Array views fit. */
export type StagedColumnRef =
  | { readonly kind: 'fixed'; readonly width: number; readonly offset: number; readonly sizeBytes: number }
  | { readonly kind: 'var'; readonly offset: number; readonly sizeBytes: number; readonly offsetsOffset: number };

export interface StagedChunkRef {
  readonly rowCount: number;
  readonly columns: readonly StagedColumnRef[];
}

function aligned(position: number): number {
  return (position + 7) & ~7;
}

/** Appends row chunks to a new file, part after part; each append returns where its columns went. */
export class StagedChunksWriter {
  private fd: number | undefined;
  private position = 0;

  constructor(readonly path: string) {}

  append(chunks: readonly RowChunk[]): StagedChunkRef[] {
    const parts: Uint8Array[] = [];
    const place = (bytes: Uint8Array): number => {
      const start = aligned(this.position);
      if (start > this.position) parts.push(new Uint8Array(start - this.position));
      parts.push(bytes);
      this.position = start + bytes.length;
      return start;
    };
    const refs = chunks.map((chunk): StagedChunkRef => {
      assertChunk(chunk, 'staging a chunk');
      return { rowCount: chunk.rowCount, columns: chunk.columns.map((column) => placeColumn(column, place)) };
    });
    this.fd ??= fs.openSync(this.path, 'wx');
    // One buffer: writev may write only part of a long vector, and one copy costs little beside the parse.
    const bytes = Buffer.concat(parts);
    for (let written = 0; written < bytes.length;) written += fs.writeSync(this.fd, bytes, written, bytes.length - written);
    return refs;
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

function placeColumn(column: ColumnData, place: (bytes: Uint8Array) => number): StagedColumnRef {
  if (column.kind === 'fixed') return { kind: 'fixed', width: column.width, offset: place(column.bytes), sizeBytes: column.bytes.length };
  const offset = place(column.bytes);
  const offsetsOffset = place(new Uint8Array(column.offsets.buffer, column.offsets.byteOffset, column.offsets.byteLength));
  return { kind: 'var', offset, sizeBytes: column.bytes.length, offsetsOffset };
}

/** Reads a staged file back as the chunks `refs` describe; every reference is checked against the file size. */
export function readStagedChunks(path: string, refs: readonly StagedChunkRef[]): RowChunk[] {
  const size = fs.statSync(path).size;
  // Not from the shared pool: the buffer must start at offset 0 of its own memory for aligned views.
  const bytes = Buffer.allocUnsafeSlow(size);
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
    const chunk: RowChunk = { rowCount: ref.rowCount, columns: ref.columns.map((column) => columnOf(bytes, column, ref.rowCount, path)) };
    assertChunk(chunk, 'reading a staged chunk');
    return chunk;
  });
}

function columnOf(bytes: Buffer, ref: StagedColumnRef, rowCount: number, path: string): ColumnData {
  const end = ref.offset + ref.sizeBytes;
  if (ref.offset < 0 || end > bytes.length) throw new StorageError(`staged chunk reference out of the file [path=${path}]`);
  if (ref.kind === 'fixed') {
    assert(ref.sizeBytes === rowCount * ref.width, 'a staged fixed column holds rowCount values');
    return { kind: 'fixed', width: ref.width, bytes: bytes.subarray(ref.offset, end) };
  }
  const offsetsEnd = ref.offsetsOffset + (rowCount + 1) * 8;
  if (ref.offsetsOffset % 8 !== 0 || offsetsEnd > bytes.length) throw new StorageError(`staged chunk offsets out of the file [path=${path}]`);
  const offsets = new Float64Array(bytes.buffer, bytes.byteOffset + ref.offsetsOffset, rowCount + 1);
  return { kind: 'var', bytes: bytes.subarray(ref.offset, end), offsets };
}
