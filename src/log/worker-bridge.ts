// Worker ↔ primary logging without owning the transport: a worker's records go to an injected send() (cluster/
// carries them over IPC), and the primary writes what arrives with writeForwardedRecord(), through the same
// dispatcher as its own records — so only the primary touches files, stdout and Alertmanager.
// Without a routing table a worker forwards every level but DEBUG (DEBUG too when SVC_DEBUG is set) and the primary
// filters; with the primary's table (getLogRoutingTable) it skips, without building them, records no writer takes.
import { ALL_LEVELS_MASK, LEVEL_BITS, debugRequested } from './levels.js';
import { parseLogRecordPayload, type LogRecordPayload } from './log-record.js';
import type { LogRoutingTable } from './dispatcher.js';
import { DEFAULT_RECORD_LENGTH, emitRecord, installLogSink, writeStderr, type LogSink } from './logger.js';
import { formatRecordLine } from './layout.js';
import { subscribeUnhandledErrors } from './startup-advisory.js';

export type { LogRecordPayload, LogRoutingTable };
export { parseLogRecordPayload };

/** A sink that hands each record to `send`; if sending fails (channel closed), the record goes to stderr. */
export function createForwardingSink(send: (record: LogRecordPayload) => void, routing?: LogRoutingTable): LogSink {
  const fallbackMask = debugRequested(process.env) ? ALL_LEVELS_MASK : ALL_LEVELS_MASK & ~LEVEL_BITS.D;
  // Longest scope first, so the first prefix match is the longest one (the dispatcher's rule).
  const scopes = [...(routing?.scopes ?? [])].sort((a, b) => b.scope.length - a.scope.length);
  return {
    levelMaskFor(loggerName: string): number {
      if (routing === undefined) return fallbackMask;
      return scopes.find((entry) => loggerName.startsWith(entry.scope))?.levelMask ?? 0;
    },
    write(record: LogRecordPayload): void {
      try {
        send(record);
      } catch (error) {
        writeStderr(formatRecordLine(record));
        writeStderr(`(log record not forwarded to the primary: ${error instanceof Error ? error.message : String(error)})`);
      }
    },
  };
}

let unsubscribeWorker: (() => void) | undefined;

/** In a worker: every getLogger() record, including those logged before this call, goes to `send`. */
export function configureWorkerLogging(send: (record: LogRecordPayload) => void, routing?: LogRoutingTable): void {
  installLogSink(createForwardingSink(send, routing), routing?.recordLength ?? DEFAULT_RECORD_LENGTH);
  unsubscribeWorker ??= subscribeUnhandledErrors();
}

/** In the primary: writes a record a worker forwarded (buffered until logging is configured). */
export function writeForwardedRecord(record: LogRecordPayload): void {
  emitRecord(record);
}
