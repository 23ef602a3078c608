// One open log file with a write buffer: lines collect in memory and go to disk with one synchronous write at the
// end of the event-loop turn, when the buffer passes its size, or on flushSync(). Synchronous writes to a local file
// cost little (page cache) and mean a record is on its way to disk before a crashing process exits.
// Invariants: `sizeBytes` is the file's length including everything written; the buffer never exceeds its bound
// (a failed write drops the buffer and is reported, so a full disk cannot grow memory).
import { closeSync, fstatSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { assert } from '../core/assert.js';
import { reportWriterFailure } from './log-writer.js';

export class BufferedFile {
  private readonly writerName: string;
  private readonly bufferBytesMax: number;
  private fd: number | undefined;
  private openPath = '';
  private chunks: string[] = [];
  private bufferedBytes = 0;
  private flushPending: NodeJS.Immediate | undefined;
  private written = 0;

  constructor(writerName: string, bufferBytesMax: number) {
    assert(bufferBytesMax > 0, 'a zero-size buffer would write every line twice over');
    this.writerName = writerName;
    this.bufferBytesMax = bufferBytesMax;
  }

  get path(): string {
    return this.openPath;
  }

  /** Bytes in the file plus bytes waiting in the buffer. */
  get sizeBytes(): number {
    return this.written + this.bufferedBytes;
  }

  get isOpen(): boolean {
    return this.fd !== undefined;
  }

  /**
   * Opens `path` ('a' appends, 'w' truncates, 'wx' creates and fails with EEXIST if the file exists); the caller
   * handles EEXIST. Creates the directory when missing.
   */
  open(path: string, flags: 'a' | 'w' | 'wx'): void {
    assert(this.fd === undefined, 'open() on an open file would leak its descriptor');
    mkdirSync(dirname(path), { recursive: true });
    const fd = openSync(path, flags, 0o644);
    this.fd = fd;
    this.openPath = path;
    this.written = fstatSync(fd).size;
  }

  /** Buffers `line` + newline; `lineBytes` is its UTF-8 length including the newline. */
  append(line: string, lineBytes: number): void {
    this.chunks.push(line, '\n');
    this.bufferedBytes += lineBytes;
    if (this.bufferedBytes >= this.bufferBytesMax) {
      this.flushSync();
    } else if (this.flushPending === undefined) {
      // Unref'd: a pending flush must not keep an otherwise finished process alive (exit paths call flushSync).
      this.flushPending = setImmediate(() => {
        this.flushPending = undefined;
        this.flushSync();
      }).unref();
    }
  }

  flushSync(): void {
    if (this.bufferedBytes === 0) return;
    const text = this.chunks.join('');
    const bytes = this.bufferedBytes;
    this.chunks = [];
    this.bufferedBytes = 0;
    if (this.fd === undefined) {
      reportWriterFailure(this.writerName, `no open file; ${bytes} bytes of records lost`, undefined);
      return;
    }
    try {
      const buffer = Buffer.from(text, 'utf8');
      let offset = 0;
      while (offset < buffer.length) offset += writeSync(this.fd, buffer, offset, buffer.length - offset);
      this.written += buffer.length;
    } catch (error) {
      reportWriterFailure(this.writerName, `could not write ${bytes} bytes to ${this.openPath}`, error);
    }
  }

  close(): void {
    this.flushSync();
    if (this.flushPending !== undefined) clearImmediate(this.flushPending);
    this.flushPending = undefined;
    if (this.fd === undefined) return;
    try {
      closeSync(this.fd);
    } catch (error) {
      reportWriterFailure(this.writerName, `could not close ${this.openPath}`, error);
    }
    this.fd = undefined;
  }
}

/** UTF-8 length of a line plus its newline. */
export function lineByteLength(line: string): number {
  return Buffer.byteLength(line, 'utf8') + 1;
}
