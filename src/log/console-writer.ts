// io.svc.log.LogConsoleWriter: records on standard output. Writers sharing one stream (stdout and the http.min
// writer in the default log.conf) share one buffer, so their records keep their order; the buffer goes out once per
// event-loop turn, when it passes its size, or on flushSync().
import type { LogRecordPayload } from './log-record.js';
import type { LogWriter } from './log-writer.js';
import { reportWriterFailure } from './log-writer.js';
import { lineByteLength } from './buffered-file.js';

/** The part of a stream the writer uses; process.stdout by default, a collector in tests. */
export interface ConsoleStream {
  write(chunk: string): unknown;
}

export interface ConsoleWriterOptions {
  readonly name: string;
  readonly bufferBytesMax: number;
  readonly stream?: ConsoleStream;
}

class StreamBuffer {
  private readonly stream: ConsoleStream;
  private chunks: string[] = [];
  private bufferedBytes = 0;
  private flushPending: NodeJS.Immediate | undefined;
  bufferBytesMax = 0;
  users = 0;

  constructor(stream: ConsoleStream) {
    this.stream = stream;
  }

  append(line: string, writerName: string): void {
    this.chunks.push(line, '\n');
    this.bufferedBytes += lineByteLength(line);
    if (this.bufferedBytes >= this.bufferBytesMax) {
      this.flush(writerName);
    } else if (this.flushPending === undefined) {
      this.flushPending = setImmediate(() => {
        this.flushPending = undefined;
        this.flush(writerName);
      }).unref();
    }
  }

  flush(writerName: string): void {
    if (this.bufferedBytes === 0) return;
    const text = this.chunks.join('');
    this.chunks = [];
    this.bufferedBytes = 0;
    try {
      this.stream.write(text);
    } catch (error) {
      reportWriterFailure(writerName, 'could not write to the console', error);
    }
  }

  release(writerName: string): void {
    this.flush(writerName);
    if (this.flushPending !== undefined) clearImmediate(this.flushPending);
    this.flushPending = undefined;
  }
}

const buffersByStream = new Map<ConsoleStream, StreamBuffer>();

export class ConsoleWriter implements LogWriter {
  readonly kind = 'console' as const;
  private readonly name: string;
  private readonly stream: ConsoleStream;
  private readonly buffer: StreamBuffer;
  private closed = false;

  constructor(options: ConsoleWriterOptions) {
    this.name = options.name;
    this.stream = options.stream ?? process.stdout;
    let buffer = buffersByStream.get(this.stream);
    if (buffer === undefined) {
      buffer = new StreamBuffer(this.stream);
      buffersByStream.set(this.stream, buffer);
    }
    buffer.bufferBytesMax = Math.max(buffer.bufferBytesMax, options.bufferBytesMax);
    buffer.users++;
    this.buffer = buffer;
  }

  describe(): string {
    return this.stream === process.stdout ? 'standard output' : 'console stream';
  }

  write(line: string, record: LogRecordPayload): void {
    if (this.closed) return;
    this.buffer.append(line, this.name);
    if (record.level === 'C') this.buffer.flush(this.name);
  }

  flushSync(): void {
    this.buffer.flush(this.name);
  }

  reopen(): void {
    // Standard output belongs to whoever started the process; there is nothing to reopen.
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    this.buffer.release(this.name);
    this.buffer.users--;
    if (this.buffer.users === 0) buffersByStream.delete(this.stream);
    return Promise.resolve();
  }
}
