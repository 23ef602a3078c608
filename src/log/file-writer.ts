// io.svc.log.LogFileWriter: one file that only grows (no rolling), appended to across restarts unless
// `truncate=true` empties it at start-up. Meant for short debugging sessions; the default log.conf rolls instead.
import type { LogRecordPayload } from './log-record.js';
import { reportWriterFailure, type LogWriter } from './log-writer.js';
import type { LocationTemplate } from './location-template.js';
import { BufferedFile, lineByteLength } from './buffered-file.js';
import { nowMicros } from './log-record.js';

export interface FileWriterOptions {
  readonly name: string;
  readonly location: LocationTemplate;
  readonly truncate: boolean;
  readonly bufferBytesMax: number;
}

export class FileWriter implements LogWriter {
  readonly kind = 'file' as const;
  private readonly name: string;
  private readonly file: BufferedFile;
  private readonly path: string;
  private closed = false;

  constructor(options: FileWriterOptions) {
    this.name = options.name;
    this.file = new BufferedFile(options.name, options.bufferBytesMax);
    // A date in the location is fixed when the writer starts: this writer never changes files.
    this.path = options.location.pathAt(nowMicros(), 0);
    this.file.open(this.path, options.truncate ? 'w' : 'a');
  }

  describe(): string {
    return `file ${this.path}`;
  }

  write(line: string, record: LogRecordPayload): void {
    if (this.closed) return;
    this.file.append(line, lineByteLength(line));
    // A critical record may be the last thing a dying process says.
    if (record.level === 'C') this.file.flushSync();
  }

  flushSync(): void {
    this.file.flushSync();
  }

  reopen(): void {
    if (this.closed) return;
    this.file.close();
    try {
      this.file.open(this.path, 'a');
    } catch (error) {
      reportWriterFailure(this.name, `could not reopen ${this.path}`, error);
    }
  }

  close(): Promise<void> {
    this.closed = true;
    this.file.close();
    return Promise.resolve();
  }
}
