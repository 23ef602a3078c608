// The log record as plain data (what workers forward to the primary) and the microsecond clock that stamps it.
// Invariant: within one process, timestamps never go backwards, and their microsecond digits are measured
// (process.hrtime), not padded milliseconds.
import { hrtime } from 'node:process';
import { isLogLevelLetter, type LogLevelLetter } from './levels.js';

/** One record, JSON-able so cluster/ipc.ts can carry it unchanged. */
export interface LogRecordPayload {
  /** Microseconds since the Unix epoch, UTC. */
  readonly timestampMicros: number;
  readonly level: LogLevelLetter;
  readonly logger: string;
  readonly message: string;
  /** Process that logged it, for diagnostics; it is not part of the line. */
  readonly pid: number;
}

/** Longest logger name accepted from another process; names are component names, so this is generous. */
const LOGGER_NAME_LENGTH_MAX = 256;
/** Re-read the wall clock this often so a long-running process follows NTP corrections. */
const CLOCK_RESYNC_INTERVAL_MICROS = 10_000_000;
/** Only re-anchor when the hrtime-based clock has drifted more than this from the wall clock. */
const CLOCK_DRIFT_TOLERANCE_MICROS = 1_000;

let anchorWallMicros = Date.now() * 1000;
let anchorHrNanos = hrtime.bigint();
let lastMicros = 0;

/** Wall-clock microseconds: Date.now() plus an hrtime offset, monotonic within the process. */
export function nowMicros(): number {
  let micros = anchorWallMicros + Number((hrtime.bigint() - anchorHrNanos) / 1000n);
  if (micros - anchorWallMicros > CLOCK_RESYNC_INTERVAL_MICROS) micros = resyncClock(micros);
  // Clamping keeps order when a resync stepped the wall clock back; at worst a few records share a timestamp.
  if (micros <= lastMicros) micros = lastMicros;
  lastMicros = micros;
  return micros;
}

function resyncClock(estimateMicros: number): number {
  const wallMicros = Date.now() * 1000;
  anchorHrNanos = hrtime.bigint();
  if (Math.abs(wallMicros - estimateMicros) <= CLOCK_DRIFT_TOLERANCE_MICROS) {
    anchorWallMicros = estimateMicros;
    return estimateMicros;
  }
  anchorWallMicros = wallMicros;
  return wallMicros;
}

/**
 * Narrows a record that arrived over IPC; returns undefined for anything malformed so a confused worker cannot crash
 * the primary's logging. Over-long logger names are cut rather than rejected: the message still matters.
 */
export function parseLogRecordPayload(value: unknown): LogRecordPayload | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const timestampMicros: unknown = Reflect.get(value, 'timestampMicros');
  const level: unknown = Reflect.get(value, 'level');
  const logger: unknown = Reflect.get(value, 'logger');
  const message: unknown = Reflect.get(value, 'message');
  const pid: unknown = Reflect.get(value, 'pid');
  if (typeof timestampMicros !== 'number' || !Number.isSafeInteger(timestampMicros) || timestampMicros < 0) return undefined;
  if (!isLogLevelLetter(level) || typeof logger !== 'string' || typeof message !== 'string') return undefined;
  if (typeof pid !== 'number' || !Number.isSafeInteger(pid)) return undefined;
  return { timestampMicros, level, logger: logger.slice(0, LOGGER_NAME_LENGTH_MAX), message, pid };
}
