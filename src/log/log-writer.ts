// The contract every writer (rolling file, file, console, alert) keeps towards the dispatcher, and the shared
// reporting of a writer's own failures. A writer never throws from write(): a failing disk or a dead Alertmanager
// must not break the caller that logged. File and console writers report failures on stderr, rate-limited, because
// logging them through the logger could loop back into the failing writer.
import type { LogWriterKind } from '../config/log-keys.js';
import type { LogRecordPayload } from './log-record.js';
import { appendErrorText } from './layout.js';
import { writeStderr } from './logger.js';

export interface LogWriter {
  readonly kind: LogWriterKind;
  /** One line for the start-up advisory: what the writer writes to. */
  describe(): string;
  /** `line` is the formatted record without its newline; `record` is there for writers that filter on it. */
  write(line: string, record: LogRecordPayload): void;
  /** Writes buffered lines now, synchronously (exit paths, critical records). */
  flushSync(): void;
  /** Re-opens files after an external rotation (SIGHUP). */
  reopen(): void;
  /** Flushes and releases files, sockets and timers; the writer takes no more records. */
  close(): Promise<void>;
}

/** Reports per writer at most this often, so a full disk does not flood stderr. */
const FAILURE_REPORT_INTERVAL_MS = 10_000;
const lastReportMillis = new Map<string, number>();
const suppressedCounts = new Map<string, number>();

/** Tells the operator on stderr that `writerName` failed; repeated failures within the interval are counted. */
export function reportWriterFailure(writerName: string, what: string, error: unknown): void {
  const now = Date.now();
  const last = lastReportMillis.get(writerName);
  if (last !== undefined && now - last < FAILURE_REPORT_INTERVAL_MS) {
    suppressedCounts.set(writerName, (suppressedCounts.get(writerName) ?? 0) + 1);
    return;
  }
  const suppressed = suppressedCounts.get(writerName) ?? 0;
  suppressedCounts.delete(writerName);
  lastReportMillis.set(writerName, now);
  const tail = suppressed > 0 ? ` (${suppressed} similar failures not shown)` : '';
  const message = `log writer ${writerName}: ${what}${tail}`;
  writeStderr(error === undefined ? message : appendErrorText(message, error));
}

/** The `code` of a Node system error (EEXIST, ENOSPC…), or undefined. */
export function errnoCode(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const code: unknown = Reflect.get(error, 'code');
  return typeof code === 'string' ? code : undefined;
}
