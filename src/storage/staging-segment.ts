// Import staging segments: an upload's rows, written batch by batch to `db/.staging/<id>/` while the request
// streams, invisible to readers. The primary merges a finished segment into its table; an aborted or
// orphaned one (found at start-up) is deleted. Layout: `columns.json` (names, types, batches) and
// `data.bin` (per batch, per column: the column-file bytes of its rows; SYMBOL and UUID as text records).
import { join } from 'node:path';
import * as fs from 'node:fs';
import type { ColumnType } from '../types/column-type.js';
import { STORAGE_WIDTH_BYTES, isVariableSize } from '../types/column-type.js';
import { assert } from '../core/assert.js';
import { StorageError } from '../core/errors.js';
import { realFiles } from '../core/files.js';
import { filesFromEnvironment } from '../core/fault-files.js';
import { varOffsets, type ColumnData, type RowChunk } from './row-chunk.js';

/** Segments are written by workers: through the same facade as the primary's storage, so tests can fail them too. */
const files = filesFromEnvironment(realFiles, process.env);

interface SegmentManifest {
  readonly columns: { name: string; type: ColumnType }[];
  readonly batches: { rowCount: number; offset: number; lengths: number[] }[];
}

export const STAGING_DIR_NAME = '.staging';

export function stagingRoot(dbDir: string): string {
  return join(dbDir, STAGING_DIR_NAME);
}

/** Whether a staged column holds text records: every variable-size type, and SYMBOL and UUID as their text. */
export function isStagedAsText(type: ColumnType): boolean {
  return type === 'SYMBOL' || type === 'UUID' || isVariableSize(type);
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

  /** Appends rows in storage form (SYMBOL and UUID columns as text records), one write per column. */
  append(chunk: RowChunk): void {
    assert(!this.closed, 'no appends after finish or abort');
    assert(chunk.columns.length === this.manifest.columns.length, 'a staged chunk has one column per segment column');
    const lengths: number[] = [];
    const start = this.offset;
    chunk.columns.forEach((column, k) => {
      const type = (this.manifest.columns[k] as { type: ColumnType }).type;
      assert((column.kind === 'var') === isStagedAsText(type), 'text-staged columns arrive as records, the others as fixed-width values');
      files.write(this.fd, column.bytes, this.offset);
      this.offset += column.bytes.length;
      lengths.push(column.bytes.length);
    });
    this.manifest.batches.push({ rowCount: chunk.rowCount, offset: start, lengths });
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

/** Reads a finished segment back, one chunk of rows in storage form at a time. */
export function readStagingSegment(dir: string): { columns: { name: string; type: ColumnType }[]; batches: () => Generator<RowChunk> } {
  const manifestPath = join(dir, 'columns.json');
  if (!fs.existsSync(manifestPath)) throw new StorageError(`staging segment is incomplete [dir=${dir}]`);
  const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as SegmentManifest;
  const dataPath = join(dir, 'data.bin');
  function* batches(): Generator<RowChunk> {
    const fd = fs.openSync(dataPath, 'r');
    try {
      for (const batch of manifest.batches) {
        // One read per batch; the columns are views of it.
        const total = batch.lengths.reduce((sum, length) => sum + length, 0);
        const bytes = Buffer.allocUnsafe(total);
        let done = 0;
        while (done < total) {
          const read = fs.readSync(fd, bytes, done, total - done, batch.offset + done);
          if (read <= 0) throw new StorageError(`staging segment is truncated [dir=${dir}]`);
          done += read;
        }
        let position = 0;
        const columns = batch.lengths.map((length, k): ColumnData => {
          const type = (manifest.columns[k] as { type: ColumnType }).type;
          const part = bytes.subarray(position, position + length);
          position += length;
          if (isStagedAsText(type)) return { kind: 'var', bytes: part, offsets: varOffsets(part, batch.rowCount) };
          return { kind: 'fixed', width: STORAGE_WIDTH_BYTES[type], bytes: part };
        });
        yield { rowCount: batch.rowCount, columns };
      }
    } finally {
      fs.closeSync(fd);
    }
  }
  return { columns: manifest.columns, batches };
}
