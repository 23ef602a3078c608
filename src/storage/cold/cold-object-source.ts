// The bytes of a cold Parquet partition (its data.parquet lives only in the object store): the footer from the
// partition's local footer.parquet (the object's last footer-length + 8 bytes), column chunks from the chunks
// the running statement leased. A chunk the statement does not hold throws ColdChunksNeeded, never blocks.
import * as fs from 'node:fs';
import { StorageError } from '../../core/errors.js';
import type { ByteRangeSource } from '../parquet/byte-range-source.js';
import { ColdChunksNeeded, currentColdReadSession } from './cold-read-session.js';
import type { ColdObject } from './cold-read-errors.js';

export class ColdObjectSource implements ByteRangeSource {
  readonly key: string;
  readonly sizeBytes: number;
  private footer: Buffer | undefined;

  constructor(readonly object: ColdObject, private readonly footerPath: string) {
    this.key = `cold:${object.key}:${object.etag}`;
    this.sizeBytes = object.sizeBytes;
  }

  read(offset: number, length: number): Uint8Array {
    if (offset < 0 || length < 0 || offset + length > this.sizeBytes) {
      throw new StorageError(`parquet byte range outside the cold object [key=${this.object.key}, offset=${offset}, length=${length}, size=${this.sizeBytes}]`);
    }
    const footer = this.footerBytes();
    const footerStart = this.sizeBytes - footer.length;
    if (offset >= footerStart) return new Uint8Array(footer.subarray(offset - footerStart, offset - footerStart + length));
    const bytes = currentColdReadSession()?.bytesOf(this.object, offset, length);
    if (bytes === undefined) throw new ColdChunksNeeded([{ object: this.object, ranges: [{ offset, length }] }]);
    // A view, not a copy: decoders only read their input, and the statement's lease keeps the bytes alive.
    return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
  }

  close(): void {
    // Nothing is held open: the footer is read whole once, chunks belong to the statement's leases.
  }

  private footerBytes(): Buffer {
    if (this.footer === undefined) {
      try {
        this.footer = fs.readFileSync(this.footerPath);
      } catch (error) {
        throw new StorageError(`could not read the local footer of a cold partition [path=${this.footerPath}, error=${(error as Error).message}]`);
      }
      if (this.footer.length < 12 || this.footer.length > this.sizeBytes) throw new StorageError(`local footer of a cold partition has a wrong size [path=${this.footerPath}, bytes=${this.footer.length}, object=${this.sizeBytes}]`);
    }
    return this.footer;
  }
}
