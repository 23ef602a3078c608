// The logging facade every component uses: getLogger(name) → critical/error/info/debug/advisory.
// Owns the one active LogSink of the process (primary writers, worker forwarding, or the start-up buffer).
// Invariants: a message function runs only when some writer takes the level; logging never throws to the caller;
// records logged before configuration are kept (bounded) and replayed, or printed on stderr if the process exits first.
import { writeSync } from 'node:fs';
import { ALL_LEVELS_MASK, LEVEL_BITS, LEVEL_NAMES, debugRequested, type LogLevelLetter } from './levels.js';
import { nowMicros, type LogRecordPayload } from './log-record.js';
import { appendErrorText, formatRecordLine, truncateMessage } from './layout.js';

/** A message, or a function building it, called only when the record will be written. */
export type LogMessage = string | (() => string);

/** Where records go; installed by configure.ts (primary) or worker-bridge.ts (worker). */
export interface LogSink {
  /** Bit set of the levels some writer would take from this logger. */
  levelMaskFor(loggerName: string): number;
  /** Writes a record the mask admitted; must not throw. */
  write(record: LogRecordPayload): void;
}

/** Records kept before configuration; more drop the oldest. */
const PRE_CONFIG_RECORDS_MAX = 1000;
/** Distinct logger names cached; past this, getLogger still works but returns uncached instances. */
const CACHED_LOGGERS_MAX = 4096;
/** Nested logging (a writer logging while writing) deeper than this goes to stderr instead, to stop loops. */
const NESTED_LOG_DEPTH_MAX = 2;
/** recordLength until log.conf says otherwise (the key table's default). */
export const DEFAULT_RECORD_LENGTH = 16384;

let activeSink: LogSink | undefined;
let sinkGeneration = 0;
let recordLength = DEFAULT_RECORD_LENGTH;
let nestedDepth = 0;
const preConfigRecords: LogRecordPayload[] = [];
let preConfigDropped = 0;
let exitHookInstalled = false;
const loggers = new Map<string, Logger>();

export class Logger {
  readonly name: string;
  private mask = 0;
  private generation = -1;

  constructor(name: string) {
    this.name = name;
  }

  critical(message: LogMessage, error?: unknown): void {
    this.log('C', message, error);
  }

  error(message: LogMessage, error?: unknown): void {
    this.log('E', message, error);
  }

  info(message: LogMessage, error?: unknown): void {
    this.log('I', message, error);
  }

  debug(message: LogMessage, error?: unknown): void {
    this.log('D', message, error);
  }

  advisory(message: LogMessage): void {
    this.log('A', message, undefined);
  }

  isEnabled(level: LogLevelLetter): boolean {
    return (this.levelMask() & LEVEL_BITS[level]) !== 0;
  }

  log(level: LogLevelLetter, message: LogMessage, error: unknown): void {
    if ((this.levelMask() & LEVEL_BITS[level]) === 0) return;
    let text: string;
    try {
      text = typeof message === 'string' ? message : message();
    } catch (buildError) {
      text = appendErrorText(`could not build ${LEVEL_NAMES[level]} message`, buildError);
    }
    if (error !== undefined) text = appendErrorText(text, error);
    const record: LogRecordPayload = {
      timestampMicros: nowMicros(),
      level,
      logger: this.name,
      message: truncateMessage(text, recordLength),
      pid: process.pid,
    };
    writeRecord(record);
  }

  private levelMask(): number {
    if (this.generation !== sinkGeneration) {
      this.mask = activeSink === undefined ? preConfigMask() : activeSink.levelMaskFor(this.name);
      this.generation = sinkGeneration;
    }
    return this.mask;
  }
}

/** The logger for a component (`server-main`, `http-min-server`, `alert-writer`…); usable before configuration. */
export function getLogger(name: string): Logger {
  const cached = loggers.get(name);
  if (cached !== undefined) return cached;
  const logger = new Logger(name);
  if (loggers.size < CACHED_LOGGERS_MAX) loggers.set(name, logger);
  return logger;
}

/** Routes a complete record (e.g. one a worker forwarded) by the active sink's levels for its logger. */
export function emitRecord(record: LogRecordPayload): void {
  const mask = activeSink === undefined ? preConfigMask() : activeSink.levelMaskFor(record.logger);
  if ((mask & LEVEL_BITS[record.level]) === 0) return;
  writeRecord({ ...record, message: truncateMessage(record.message, recordLength) });
}

/** Makes `sink` the destination of every record, then replays what was logged before configuration. */
export function installLogSink(sink: LogSink, recordLengthMax: number): void {
  activeSink = sink;
  recordLength = recordLengthMax;
  sinkGeneration++;
  const replay = preConfigRecords.splice(0, preConfigRecords.length);
  if (preConfigDropped > 0) {
    getLogger('log').info(`${preConfigDropped} records logged before configuration were dropped (buffer of ${PRE_CONFIG_RECORDS_MAX})`);
    preConfigDropped = 0;
  }
  for (const record of replay) emitRecord(record);
}

/** Back to buffering (after shutdown); returns the sink that was active. */
export function uninstallLogSink(): LogSink | undefined {
  const previous = activeSink;
  activeSink = undefined;
  sinkGeneration++;
  return previous;
}

function writeRecord(record: LogRecordPayload): void {
  const sink = activeSink;
  if (sink === undefined) {
    bufferPreConfig(record);
    return;
  }
  if (nestedDepth >= NESTED_LOG_DEPTH_MAX) {
    writeStderr(formatRecordLine(record));
    return;
  }
  nestedDepth++;
  try {
    sink.write(record);
  } catch (error) {
    writeStderr(formatRecordLine(record));
    writeStderr(appendErrorText('log sink failed', error));
  } finally {
    nestedDepth--;
  }
}

/** Before configuration nobody knows the levels, so keep everything except DEBUG unless SVC_DEBUG says otherwise. */
function preConfigMask(): number {
  return debugRequested(process.env) ? ALL_LEVELS_MASK : ALL_LEVELS_MASK & ~LEVEL_BITS.D;
}

function bufferPreConfig(record: LogRecordPayload): void {
  if (preConfigRecords.length >= PRE_CONFIG_RECORDS_MAX) {
    preConfigRecords.shift();
    preConfigDropped++;
  }
  preConfigRecords.push(record);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    // A process that dies before configuring logging (bad server.conf…) must still show why.
    process.once('exit', printPreConfigRecords);
  }
}

function printPreConfigRecords(): void {
  for (const record of preConfigRecords.splice(0, preConfigRecords.length)) writeStderr(formatRecordLine(record));
}

/** Last-resort output: synchronous, so it survives an exiting process; failures are ignored (nowhere else to go). */
export function writeStderr(line: string): void {
  try {
    writeSync(2, `${line}\n`);
  } catch {
    // stderr closed: nothing more can be done.
  }
}

