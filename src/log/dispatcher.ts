// The primary's record router, built on log4js (the only importer of log4js in src/). Each writer becomes a log4js
// custom appender and each distinct scope a log4js category, so log4js owns dispatch and the ordered shutdown of
// every writer. What log4js cannot express is done here: a logger belongs to the category of the longest scope that
// prefixes its name (log4js only nests on dots), and writers take level *sets* (QuestDB semantics), so categories
// accept ALL and each appender filters by its writer's bit set. log4js clustering is disabled: cluster/ carries
// worker records (worker-bridge.ts), and log4js must neither process.send nor listen to cluster messages itself.
import log4js from 'log4js';
import type { AppenderFunction, AppenderModule, Configuration, LoggingEvent } from 'log4js';
import { assert } from '../core/assert.js';
import { LEVEL_BITS, type LogLevelLetter } from './levels.js';
import type { LogRecordPayload } from './log-record.js';
import type { LogSink } from './logger.js';
import { writeStderr } from './logger.js';
import { formatRecordLine } from './layout.js';
import { reportWriterFailure, type LogWriter } from './log-writer.js';

export interface WriterBinding {
  readonly name: string;
  readonly writer: LogWriter;
  readonly levelMask: number;
  readonly scope: string;
}

/** What a worker needs to skip records no writer would take (JSON-able, for cluster/ to send at fork). */
export interface LogRoutingTable {
  readonly scopes: ReadonlyArray<{ readonly scope: string; readonly levelMask: number }>;
  readonly recordLength: number;
}

/** The single datum passed through log4js: the record and its line, formatted once for all writers. */
class DispatchEntry {
  constructor(readonly record: LogRecordPayload, readonly line: string) {}
}

interface ScopeGroup {
  readonly scope: string;
  readonly levelMask: number;
  readonly logger: log4js.Logger;
}

const LOG4JS_LEVEL: Readonly<Record<LogLevelLetter, string>> = { D: 'DEBUG', I: 'INFO', E: 'ERROR', C: 'CRITICAL', A: 'ADVISORY' };
/** log4js has no CRITICAL or ADVISORY; values sit between its ERROR (40000) and FATAL (50000), and above FATAL. */
const CUSTOM_LEVELS = { CRITICAL: { value: 45000, colour: 'red' }, ADVISORY: { value: 55000, colour: 'cyan' } };
/** Logger names whose group is cached; logger names are component names, so this is rarely reached. */
const GROUP_CACHE_MAX = 4096;

export class LogDispatcher implements LogSink {
  private readonly groups: ScopeGroup[];
  private readonly groupByLogger = new Map<string, ScopeGroup | undefined>();
  private readonly recordLength: number;

  constructor(bindings: readonly WriterBinding[], recordLength: number) {
    this.recordLength = recordLength;
    const scopes = [...new Set(bindings.map((binding) => binding.scope))].sort((a, b) => b.length - a.length);
    const config: Configuration = { appenders: {}, categories: {}, levels: CUSTOM_LEVELS, disableClustering: true };
    for (const binding of bindings) config.appenders[`writer:${binding.name}`] = { type: appenderModuleFor(binding) };
    const categoryOf = (scope: string, index: number): string => (scope === '' ? 'default' : `scope-${index}`);
    scopes.forEach((scope, index) => {
      const names = bindings.filter((binding) => binding.scope === scope).map((binding) => `writer:${binding.name}`);
      config.categories[categoryOf(scope, index)] = { appenders: names, level: 'ALL' };
    });
    if (config.categories['default'] === undefined) {
      // log4js requires a default category; without an unscoped writer, unmatched loggers go nowhere.
      config.appenders['discard'] = { type: { configure: () => () => undefined } };
      config.categories['default'] = { appenders: ['discard'], level: 'OFF' };
    }
    log4js.configure(config);
    this.groups = scopes.map((scope, index) => ({
      scope,
      levelMask: bindings.filter((binding) => binding.scope === scope).reduce((mask, binding) => mask | binding.levelMask, 0),
      logger: log4js.getLogger(categoryOf(scope, index)),
    }));
  }

  levelMaskFor(loggerName: string): number {
    return this.groupFor(loggerName)?.levelMask ?? 0;
  }

  write(record: LogRecordPayload): void {
    const group = this.groupFor(record.logger);
    if (group === undefined || (group.levelMask & LEVEL_BITS[record.level]) === 0) return;
    group.logger.log(LOG4JS_LEVEL[record.level], new DispatchEntry(record, formatRecordLine(record)));
  }

  routingTable(): LogRoutingTable {
    return { scopes: this.groups.map(({ scope, levelMask }) => ({ scope, levelMask })), recordLength: this.recordLength };
  }

  /** Stops dispatch and closes every writer (log4js calls each appender's shutdown). */
  shutdown(): Promise<void> {
    return new Promise((resolve) => {
      log4js.shutdown((error) => {
        if (error !== undefined) writeStderr(`log shutdown: ${error.message}`);
        resolve();
      });
    });
  }

  /** Longest scope that prefixes the name; groups are sorted longest first, so the first match wins. */
  private groupFor(loggerName: string): ScopeGroup | undefined {
    if (this.groupByLogger.has(loggerName)) return this.groupByLogger.get(loggerName);
    const group = this.groups.find((candidate) => loggerName.startsWith(candidate.scope));
    if (this.groupByLogger.size < GROUP_CACHE_MAX) this.groupByLogger.set(loggerName, group);
    return group;
  }
}

function appenderModuleFor(binding: WriterBinding): AppenderModule {
  return {
    configure: (): AppenderFunction => {
      const appender = (event: LoggingEvent): void => {
        const entry: unknown = event.data[0];
        assert(entry instanceof DispatchEntry, 'only LogDispatcher.write logs through log4js');
        if ((binding.levelMask & LEVEL_BITS[entry.record.level]) === 0) return;
        try {
          binding.writer.write(entry.line, entry.record);
        } catch (error) {
          // One failing writer must not keep the record from the others.
          reportWriterFailure(binding.name, 'write failed', error);
        }
      };
      const shutdown = (done: (error?: Error) => void): void => {
        binding.writer.close().then(
          () => done(),
          (error: unknown) => done(error instanceof Error ? error : new Error(String(error))),
        );
      };
      return Object.assign(appender, { shutdown });
    },
  };
}
