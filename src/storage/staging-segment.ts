// Import staging segments: an upload's rows, written batch by batch to `db/.staging/<id>/` while the request
// streams, invisible to readers. The primary merges a finished segment into its table; an aborted or
// orphaned one (found at start-up) is deleted. Layout: `columns.json` (names, types, batches) and
// `data.bin` (per batch, per column: fixed-width values as in column files, or [int32 length][utf8] records).
import { join } from 'node:path';
import * as fs from 'node:fs';
import type { ColumnType } from '../types/column-type.js';
import { isVariableSize } from '../types/column-type.js';
import { assert } from '../core/assert.js';
import { StorageError } from '../core/errors.js';
import { realFiles } from '../core/files.js';
import { filesFromEnvironment } from '../core/fault-files.js';
import { varOffsets } from './row-chunk.js';

/** Segments are written by workers: through the same facade as the primary's storage, so tests can fail them too. */
const files = filesFromEnvironment(realFiles, process.env);

/** A column of staged rows: the layout of a query vector (see sql/exec/batch.ts), SYMBOL with its dictionary. */
export interface StagedColumn {
  readonly type: string;
  readonly data: ArrayLike<unknown>;
  readonly exact?: BigInt64Array;
  readonly symbols?: readonly string[];
}

export interface StagedBatch {
  readonly rowCount: number;
  readonly columns: readonly StagedColumn[];
}

interface SegmentManifest {
  readonly columns: { name: string; type: ColumnType }[];
  readonly batches: { rowCount: number; offset: number; lengths: number[]; exactLengths: number[] }[];
}

export const STAGING_DIR_NAME = '.staging';

export function stagingRoot(dbDir: string): string {
  return join(dbDir, STAGING_DIR_NAME);
}

/**
 * Staged bytes of one column. Text-like columns (and SYMBOL, resolved to its text) become [int32 length][utf8]
 * records; every other column keeps its vector layout bytes as they are (LONG/DATE/TIMESTAMP as numbers),
 * followed by the exact int64 values when the vector has them.
 */
function encodeStagedColumn(column: StagedColumn, type: ColumnType, rowCount: number): { data: Buffer; exact?: Buffer } {
  if (type === 'SYMBOL' || isVariableSize(type) || type === 'UUID') return { data: encodeTextRecords(column, rowCount) };
  if (!ArrayBuffer.isView(column.data)) throw new StorageError(`cannot stage a ${type} column from this layout`);
  const view = column.data as unknown as Uint8Array;
  const data = Buffer.from(view.buffer, view.byteOffset, rowCount * view.BYTES_PER_ELEMENT);
  if (column.exact === undefined) return { data };
  return { data, exact: Buffer.from(column.exact.buffer, column.exact.byteOffset, rowCount * 8) };
}

/**
 * [int32 length][utf8] records (length -1 = null) written into one growing buffer: no per-row allocations,
 * which dominated the import profile when every record was its own Buffer.
 */
function encodeTextRecords(column: StagedColumn, rowCount: number): Buffer {
  let out = Buffer.allocUnsafe(Math.max(64, rowCount * 16));
  let position = 0;
  for (let row = 0; row < rowCount; row++) {
    const raw = column.data[row];
    const text = column.type === 'SYMBOL' ? ((raw as number) < 0 ? null : (column.symbols?.[raw as number] ?? null)) : raw;
    // Worst case: 3 UTF-8 bytes per UTF-16 unit (a raw byte value counts once).
    const worst = 4 + (typeof text === 'string' ? text.length * 3 : text instanceof Uint8Array ? text.length : 0);
    if (position + worst > out.length) {
      const grown = Buffer.allocUnsafe(Math.max(out.length * 2, position + worst));
      out.copy(grown, 0, 0, position);
      out = grown;
    }
    if (text === null || text === undefined) {
      out.writeInt32LE(-1, position);
      position += 4;
    } else if (typeof text === 'string') {
      const written = out.write(text, position + 4, 'utf8');
      out.writeInt32LE(written, position);
      position += 4 + written;
    } else {
      const bytes = text as Uint8Array;
      out.writeInt32LE(bytes.length, position);
      out.set(bytes, position + 4);
      position += 4 + bytes.length;
    }
  }
  return out.subarray(0, position);
}

export class StagingSegmentWriter {
  private readonly fd: number;
  private offset = 0;
  private readonly manifest: SegmentManifest;
  private closed = false;

  constructor(readonly dir: string, columns: readonly { name: string; type: ColumnType }[]) {
    files.mkdirs(dir);
    this.fd = files.openWrite(join(dir, 'data.bin'));
    this.manifest = { columns: columns.map((column) => ({ name: column.name, type: column.type })), batches: [] };
  }

  append(batch: StagedBatch): void {
    assert(!this.closed, 'no appends after finish or abort');
    assert(batch.columns.length === this.manifest.columns.length, 'a staged batch has one column per segment column');
    const lengths: number[] = [];
    const exactLengths: number[] = [];
    const start = this.offset;
    batch.columns.forEach((column, k) => {
      const type = (this.manifest.columns[k] as { type: ColumnType }).type;
      const encoded = encodeStagedColumn(column, type, batch.rowCount);
      for (const part of encoded.exact === undefined ? [encoded.data] : [encoded.data, encoded.exact]) {
        files.write(this.fd, part, this.offset);
        this.offset += part.length;
      }
      lengths.push(encoded.data.length);
      exactLengths.push(encoded.exact?.length ?? 0);
    });
    this.manifest.batches.push({ rowCount: batch.rowCount, offset: start, lengths, exactLengths });
  }

  /** Makes the segment complete: the manifest is written last, so a segment without one is never merged. */
  finish(): void {
    this.closed = true;
    files.close(this.fd);
    files.writeFileAtomic(join(this.dir, 'columns.json'), Buffer.from(JSON.stringify(this.manifest)), false);
  }

  abort(): void {
    if (!this.closed) {
      this.closed = true;
      files.close(this.fd);
    }
    files.removeTree(this.dir);
  }
}

/** A staged column read back: vector-layout bytes, or text records with offsets, plus exact int64 values. */
export interface StagedColumnBytes {
  readonly type: ColumnType;
  readonly bytes: Buffer;
  readonly offsets?: Float64Array;
  readonly exact?: Buffer;
}

/** Reads a finished segment back, one batch at a time. */
export function readStagingSegment(dir: string): { columns: { name: string; type: ColumnType }[]; batches: () => Generator<{ rowCount: number; columns: StagedColumnBytes[] }> } {
  const manifestPath = join(dir, 'columns.json');
  if (!fs.existsSync(manifestPath)) throw new StorageError(`staging segment is incomplete [dir=${dir}]`);
  const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as SegmentManifest;
  const dataPath = join(dir, 'data.bin');
  const read = (fd: number, length: number, position: number): Buffer => {
    const bytes = Buffer.alloc(length);
    if (length > 0) fs.readSync(fd, bytes, 0, length, position);
    return bytes;
  };
  function* batches(): Generator<{ rowCount: number; columns: StagedColumnBytes[] }> {
    const fd = fs.openSync(dataPath, 'r');
    try {
      for (const batch of manifest.batches) {
        let position = batch.offset;
        const columns = batch.lengths.map((length, k): StagedColumnBytes => {
          const type = (manifest.columns[k] as { type: ColumnType }).type;
          const bytes = read(fd, length, position);
          position += length;
          const exactLength = batch.exactLengths[k] ?? 0;
          const exact = exactLength > 0 ? read(fd, exactLength, position) : undefined;
          position += exactLength;
          const textual = type === 'SYMBOL' || isVariableSize(type) || type === 'UUID';
          if (textual) return { type, bytes, offsets: varOffsets(bytes, batch.rowCount) };
          return exact === undefined ? { type, bytes } : { type, bytes, exact };
        });
        yield { rowCount: batch.rowCount, columns };
      }
    } finally {
      fs.closeSync(fd);
    }
  }
  return { columns: manifest.columns, batches };
}
