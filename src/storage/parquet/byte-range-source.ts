// Where the bytes of a Parquet partition come from. The reader asks only for byte ranges (the footer once, then
// the column chunks a query needs), so the same decoding path serves a local file now and an object-store object
// later: a remote source fetches the ranges a query will read (coalesced, leased) before the scan runs, then
// answers `read` from memory. Sources are synchronous at read time because scans are synchronous.
import * as fs from 'node:fs';
import { StorageError } from '../../core/errors.js';

export interface ByteRangeSource {
  /** Stable identity of the bytes (path plus size, or object key plus version): the footer cache key. */
  readonly key: string;
  readonly sizeBytes: number;
  /** Bytes [offset, offset + length), for the caller to keep but not modify (a cold source returns a view of its leased chunk). */
  read(offset: number, length: number): Uint8Array;
  close(): void;
}

/**
 * A local file, read with pread. The file opens on the first read and stays open until close(); `key` may be
 * given when the caller knows the file is immutable (a partition version), which spares a stat per use.
 */
export class LocalFileSource implements ByteRangeSource {
  readonly key: string;
  readonly sizeBytes: number;
  private fd = -1;

  constructor(readonly path: string, known?: { readonly sizeBytes: number; readonly key: string }) {
    if (known !== undefined) {
      this.sizeBytes = known.sizeBytes;
      this.key = known.key;
      return;
    }
    let stat: fs.Stats;
    try {
      stat = fs.statSync(path);
    } catch (error) {
      throw new StorageError(`could not open parquet file [path=${path}, error=${(error as Error).message}]`);
    }
    if (!stat.isFile()) throw new StorageError(`not a file [path=${path}]`);
    this.sizeBytes = stat.size;
    this.key = `${path}:${stat.size}:${stat.mtimeMs}:${stat.ino}`;
  }

  read(offset: number, length: number): Uint8Array {
    if (offset < 0 || length < 0 || offset + length > this.sizeBytes) {
      throw new StorageError(`parquet byte range outside the file [path=${this.path}, offset=${offset}, length=${length}, size=${this.sizeBytes}]`);
    }
    if (this.fd < 0) {
      try {
        this.fd = fs.openSync(this.path, 'r');
      } catch (error) {
        throw new StorageError(`could not open parquet file [path=${this.path}, error=${(error as Error).message}]`);
      }
    }
    const bytes = new Uint8Array(length);
    let done = 0;
    while (done < length) {
      const read = fs.readSync(this.fd, bytes, done, length - done, offset + done);
      if (read <= 0) throw new StorageError(`parquet file shorter than expected [path=${this.path}]`);
      done += read;
    }
    return bytes;
  }

  close(): void {
    if (this.fd < 0) return;
    fs.closeSync(this.fd);
    this.fd = -1;
  }
}
