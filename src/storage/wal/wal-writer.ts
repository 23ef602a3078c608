// Appends WAL records to the current segment of a table (`wal/<segment>.wal`) and makes them durable
// per the commit mode before the write is acknowledged. Segments whose records are all applied are deleted.
import { join } from 'node:path';
import type { FilesFacade } from '../../core/files.js';
import type { IncomingChunk } from '../symbol-ids.js';
import { encodeWalRecordParts } from './wal-record.js';
import { listWalSegments } from './wal-reader.js';

export type CommitMode = 'nosync' | 'async' | 'sync';

export class WalWriter {
  private segmentId: number;
  private fd: number | undefined;
  private sizeBytes = 0;
  private readonly walDir: string;

  constructor(private readonly files: FilesFacade, tableDir: string, private readonly commitMode: CommitMode, private readonly segmentBytesMax: number) {
    this.walDir = join(tableDir, 'wal');
    files.mkdirs(this.walDir);
    const segments = listWalSegments(files, this.walDir);
    this.segmentId = segments.length === 0 ? 1 : segments[segments.length - 1] + 1;
  }

  /** Appends one record (a group record when `groupId` is given); returns the bytes written. */
  append(seq: number, chunk: IncomingChunk, groupId?: number): number {
    const parts = encodeWalRecordParts(seq, chunk, groupId);
    const fd = this.openSegment();
    this.files.writeParts(fd, parts, this.sizeBytes);
    let recordBytes = 0;
    for (const part of parts) recordBytes += part.length;
    this.sizeBytes += recordBytes;
    if (this.commitMode === 'sync') this.files.fsync(fd);
    else if (this.commitMode === 'async') setImmediate(() => this.fsyncQuietly(fd));
    return recordBytes;
  }

  /** Current end of the segment, to undo an append whose statement then failed. */
  mark(): number {
    this.openSegment();
    return this.sizeBytes;
  }

  /** Cuts the segment back to a mark, so a failed statement is not replayed at the next start. */
  undo(mark: number): void {
    const fd = this.openSegment();
    this.files.truncate(fd, mark);
    this.sizeBytes = mark;
  }

  /** Called after a commit made every record applied: rolls the segment when large and deletes old ones. */
  afterCommit(): void {
    if (this.sizeBytes < this.segmentBytesMax) return;
    this.closeSegment();
    for (const segment of listWalSegments(this.files, this.walDir)) {
      if (segment < this.segmentId) this.files.unlink(join(this.walDir, `${segment}.wal`));
    }
    this.segmentId += 1;
  }

  /** Deletes every segment: used when the table's committed state no longer needs them (truncate, drop). */
  discardAll(): void {
    this.closeSegment();
    for (const segment of listWalSegments(this.files, this.walDir)) this.files.unlink(join(this.walDir, `${segment}.wal`));
    this.segmentId += 1;
  }

  close(): void {
    this.closeSegment();
  }

  private openSegment(): number {
    if (this.fd === undefined) {
      this.fd = this.files.openWrite(join(this.walDir, `${this.segmentId}.wal`));
      this.sizeBytes = this.files.size(this.fd);
    }
    return this.fd;
  }

  private closeSegment(): void {
    if (this.fd !== undefined) {
      this.files.close(this.fd);
      this.fd = undefined;
      this.sizeBytes = 0;
    }
  }

  private fsyncQuietly(fd: number): void {
    try {
      if (this.fd === fd) this.files.fsync(fd);
    } catch {
      // The segment was closed meanwhile; the close path already made it durable or it is obsolete.
    }
  }
}
