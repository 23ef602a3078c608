// io.svc.log.LogRollingFileWriter: writes to a file named from its location at the time the file was opened, and
// starts a new file at each rollEvery boundary (UTC) or before the file would pass rollSize. Every roll, and the
// start, applies retention (lifeDuration, sizeLimit; oldest first). Invariant: a new file is always created
// exclusively, so neither a restart nor a roll within one second appends to or overwrites an older file; a taken
// name gets a counter (`stdout-…T10-11-12.1.txt`). The clock is injectable so tests can roll by the minute at once.
import { dirname } from 'node:path';
import { assert } from '../core/assert.js';
import { ConfigError } from '../core/errors.js';
import { formatDurationMs, formatSizeBytes } from '../config/duration-size.js';
import type { LogRecordPayload } from './log-record.js';
import type { LocationTemplate } from './location-template.js';
import { BufferedFile, lineByteLength } from './buffered-file.js';
import { nextRollBoundaryMillis, type RollUnit } from './conf-values.js';
import { applyRetention, type RetentionPolicy } from './log-retention.js';
import { errnoCode, reportWriterFailure, type LogWriter } from './log-writer.js';
import { getLogger } from './logger.js';

export interface RollingFileWriterOptions {
  readonly name: string;
  readonly location: LocationTemplate;
  /** Undefined = never roll by time. */
  readonly rollEvery: RollUnit | undefined;
  /** 0 = never roll by size. */
  readonly rollSizeBytes: number;
  readonly lifeDurationMs: number;
  readonly sizeLimitBytes: number;
  readonly bufferBytesMax: number;
  /** Wall clock in milliseconds; Date.now unless a test injects one. */
  readonly nowMillis?: () => number;
}

/** Names tried (plain, then .1, .2…) before a roll gives up on finding a free one. */
const COLLISION_COUNTER_MAX = 1000;
/** After a failed open, wait this long before trying again instead of retrying on every record. */
const OPEN_RETRY_INTERVAL_MS = 1000;

export class RollingFileWriter implements LogWriter {
  readonly kind = 'rolling' as const;
  private readonly options: RollingFileWriterOptions;
  private readonly nowMillis: () => number;
  private readonly file: BufferedFile;
  private deadlineMillis = Number.POSITIVE_INFINITY;
  private retryOpenAtMillis = 0;
  private closed = false;

  constructor(options: RollingFileWriterOptions) {
    assert(options.rollSizeBytes >= 0 && options.sizeLimitBytes >= 0, 'sizes are parsed as non-negative');
    this.options = options;
    this.nowMillis = options.nowMillis ?? Date.now;
    this.file = new BufferedFile(options.name, options.bufferBytesMax);
    this.openNewFile(this.nowMillis());
    if (!this.file.isOpen) {
      throw new ConfigError(`w.${options.name}.location`, `could not open a log file for ${options.location.text} (see stderr)`);
    }
  }

  describe(): string {
    const { rollEvery, rollSizeBytes, lifeDurationMs, sizeLimitBytes } = this.options;
    return `rolling file ${this.file.path} (location ${this.options.location.text}, rollEvery=${rollEvery ?? 'none'}, ` +
      `rollSize=${formatSizeBytes(rollSizeBytes)}, lifeDuration=${formatDurationMs(lifeDurationMs)}, sizeLimit=${formatSizeBytes(sizeLimitBytes)})`;
  }

  /** The file being written, for tests and advisories. */
  get currentPath(): string {
    return this.file.path;
  }

  write(line: string, record: LogRecordPayload): void {
    if (this.closed) return;
    const now = this.nowMillis();
    const lineBytes = lineByteLength(line);
    if (!this.file.isOpen) {
      if (now >= this.retryOpenAtMillis) this.openNewFile(now);
    } else if (now >= this.deadlineMillis || this.wouldPassRollSize(lineBytes)) {
      this.roll(now);
    }
    this.file.append(line, lineBytes);
    // A critical record may be the last thing a dying process says.
    if (record.level === 'C') this.file.flushSync();
  }

  flushSync(): void {
    this.file.flushSync();
  }

  /** After an external rotation: continue in a file at the same path (re-created if it was moved away). */
  reopen(): void {
    if (this.closed || !this.file.isOpen) return;
    const path = this.file.path;
    this.file.close();
    try {
      this.file.open(path, 'a');
    } catch (error) {
      reportWriterFailure(this.options.name, `could not reopen ${path}`, error);
    }
  }

  close(): Promise<void> {
    this.closed = true;
    this.file.close();
    return Promise.resolve();
  }

  private wouldPassRollSize(lineBytes: number): boolean {
    const limit = this.options.rollSizeBytes;
    // An empty file takes the line whatever its size, so one huge record cannot make the writer roll forever.
    return limit > 0 && this.file.sizeBytes > 0 && this.file.sizeBytes + lineBytes > limit;
  }

  private roll(now: number): void {
    this.file.close();
    this.openNewFile(now);
  }

  private openNewFile(now: number): void {
    const unit = this.options.rollEvery;
    this.deadlineMillis = unit === undefined ? Number.POSITIVE_INFINITY : nextRollBoundaryMillis(now, unit);
    const path = this.openUniquePath(now);
    if (path === undefined) {
      this.retryOpenAtMillis = now + OPEN_RETRY_INTERVAL_MS;
      return;
    }
    const deleted = applyRetention(this.retentionPolicy(path), path, 0, now);
    if (deleted.length > 0) {
      // Logged after the current write completes, so the record does not re-enter this writer mid-roll.
      queueMicrotask(() => getLogger('log-writer').info(`${this.options.name}: deleted ${deleted.length} old log files: ${deleted.join(', ')}`));
    }
  }

  private openUniquePath(now: number): string | undefined {
    for (let counter = 0; counter <= COLLISION_COUNTER_MAX; counter++) {
      const path = this.options.location.pathAt(now * 1000, counter);
      try {
        this.file.open(path, 'wx');
        return path;
      } catch (error) {
        if (errnoCode(error) === 'EEXIST') continue;
        reportWriterFailure(this.options.name, `could not open ${path}`, error);
        return undefined;
      }
    }
    reportWriterFailure(this.options.name, `no free file name after ${COLLISION_COUNTER_MAX} tries`, undefined);
    return undefined;
  }

  private retentionPolicy(path: string): RetentionPolicy {
    return {
      writerName: this.options.name,
      directory: dirname(path),
      familyPattern: this.options.location.familyPattern,
      lifeDurationMs: this.options.lifeDurationMs,
      sizeLimitBytes: this.options.sizeLimitBytes,
    };
  }
}
