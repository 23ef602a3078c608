// Logging set-up for the process that owns the writers (the primary, or the single process): log.conf → writers →
// LogDispatcher → the active sink; plus shutdown, SIGHUP reopen and synchronous flush for exit paths.
// Invariant: at most one configuration is live; configuring again first shuts the previous one down, and a failure
// while creating writers closes the ones already created before the error propagates.
import { readFileSync, statSync } from 'node:fs';
import { assert, assertNever } from '../core/assert.js';
import { ConfigError } from '../core/errors.js';
import { parseAlertTemplate, type AlertTemplate } from './alert-template.js';
import { AlertWriter } from './alert-writer.js';
import type { AlertSenderStats } from './alert-sender.js';
import { ConsoleWriter } from './console-writer.js';
import { LogDispatcher, type LogRoutingTable, type WriterBinding } from './dispatcher.js';
import { FileWriter } from './file-writer.js';
import { describeLevelMask } from './levels.js';
import { loadLogConf, type LogConf, type WriterConf } from './log-conf.js';
import type { LogWriter } from './log-writer.js';
import { getLogger, installLogSink, uninstallLogSink } from './logger.js';
import { RollingFileWriter } from './rolling-file-writer.js';
import { subscribeUnhandledErrors } from './startup-advisory.js';

export interface ConfigureLoggingOptions {
  readonly rootDir: string;
  readonly env: NodeJS.ProcessEnv;
  /** From -Dout=<path> or --log-conf <path>; relative to the working directory. */
  readonly logConfPath?: string;
  /** The -Debug flag; SVC_DEBUG=true does the same. */
  readonly debug?: boolean;
  readonly version: string;
  readonly role: 'primary' | 'single';
}

interface LiveLogging {
  readonly conf: LogConf;
  readonly dispatcher: LogDispatcher;
  readonly bindings: readonly WriterBinding[];
  readonly unsubscribe: () => void;
}

let live: LiveLogging | undefined;

export async function configureLogging(options: ConfigureLoggingOptions): Promise<void> {
  assert(options.role === 'primary' || options.role === 'single', 'workers use configureWorkerLogging');
  if (live !== undefined) await shutdownLogging();
  const conf = loadLogConf(options);
  const bindings = createBindings(conf, options.version, options.env);
  let dispatcher: LogDispatcher;
  try {
    dispatcher = new LogDispatcher(bindings, conf.recordLength);
  } catch (error) {
    for (const binding of bindings) void binding.writer.close();
    throw error;
  }
  live = { conf, dispatcher, bindings, unsubscribe: subscribeUnhandledErrors() };
  installLogSink(dispatcher, conf.recordLength);
  logConfigurationAdvisory(conf, bindings, options.role);
}

/** Flushes and closes every writer (waiting a bounded time for queued alerts); later records wait for a new configuration. */
export async function shutdownLogging(): Promise<void> {
  const current = live;
  if (current === undefined) return;
  live = undefined;
  current.unsubscribe();
  // Alert writers drain first, while the files still take records, so their own reports ("Received…", "Giving up…")
  // about the last alerts are written; their second close (from the dispatcher) returns at once.
  await Promise.all(current.bindings.filter((binding) => binding.writer.kind === 'alert').map((binding) => binding.writer.close()));
  uninstallLogSink();
  for (const binding of current.bindings) binding.writer.flushSync();
  await current.dispatcher.shutdown();
}

/** After logrotate moved the files (SIGHUP): continue in files at the configured paths. */
export function reopenLogFiles(): void {
  for (const binding of live?.bindings ?? []) binding.writer.reopen();
}

/** Writes every buffered line now; for process 'exit' handlers, where nothing asynchronous runs any more. */
export function flushLogsSync(): void {
  for (const binding of live?.bindings ?? []) binding.writer.flushSync();
}

/** What workers need to filter records before forwarding them; undefined before configuration. */
export function getLogRoutingTable(): LogRoutingTable | undefined {
  return live?.dispatcher.routingTable();
}

/** Counters of the first alert writer (for metrics and tests); undefined when none is configured. */
export function getAlertWriterStats(): AlertSenderStats | undefined {
  for (const binding of live?.bindings ?? []) {
    if (binding.writer instanceof AlertWriter) return binding.writer.stats();
  }
  return undefined;
}

function createBindings(conf: LogConf, version: string, env: NodeJS.ProcessEnv): WriterBinding[] {
  const bindings: WriterBinding[] = [];
  try {
    for (const writerConf of conf.writers) {
      bindings.push({ name: writerConf.name, writer: createWriter(writerConf, version, env), levelMask: writerConf.levelMask, scope: writerConf.scope });
    }
  } catch (error) {
    for (const binding of bindings) void binding.writer.close();
    throw error;
  }
  return bindings;
}

function createWriter(conf: WriterConf, version: string, env: NodeJS.ProcessEnv): LogWriter {
  switch (conf.kind) {
    case 'rolling':
      return new RollingFileWriter({
        name: conf.name, location: conf.location, rollEvery: conf.rollEvery, rollSizeBytes: conf.rollSizeBytes,
        lifeDurationMs: conf.lifeDurationMs, sizeLimitBytes: conf.sizeLimitBytes, bufferBytesMax: conf.bufferBytes,
      });
    case 'file':
      return new FileWriter({ name: conf.name, location: conf.location, truncate: conf.truncate, bufferBytesMax: conf.bufferBytes });
    case 'console':
      return new ConsoleWriter({ name: conf.name, bufferBytesMax: conf.bufferBytes });
    case 'alert':
      return new AlertWriter({
        name: conf.name, template: loadAlertTemplate(conf, version, env), targets: conf.targets,
        reconnectDelayMs: conf.reconnectDelayMs, sendTimeoutMs: conf.sendTimeoutMs, inBufferBytes: conf.inBufferBytes,
        outBufferBytes: conf.outBufferBytes, queueAlertsMax: conf.queueAlertsMax,
      });
    default:
      return assertNever(conf, 'writer configuration');
  }
}

function loadAlertTemplate(conf: WriterConf & { readonly kind: 'alert' }, version: string, env: NodeJS.ProcessEnv): AlertTemplate {
  const key = `w.${conf.name}.location`;
  let text: string;
  try {
    // The template is read whole, so inBufferSize bounds it as in QuestDB.
    if (statSync(conf.templatePath).size > conf.inBufferBytes) throw new ConfigError(key, `Template file is too big: ${conf.templatePath} (inBufferSize=${conf.inBufferBytes})`);
    text = readFileSync(conf.templatePath, 'utf8');
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(key, `could not read alert template ${conf.templatePath}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return parseAlertTemplate(text, conf.templatePath, { env, version, key });
}

function logConfigurationAdvisory(conf: LogConf, bindings: readonly WriterBinding[], role: string): void {
  const log = getLogger('log-conf');
  const origin = { explicit: 'given file', conf: 'conf file', created: 'created from the bundled default', bundled: 'bundled default' }[conf.source.origin];
  log.advisory(`log configuration ${conf.source.path} (${origin}); role ${role}; log.dir ${conf.logDir}${conf.debug ? '; debug on' : ''}`);
  if (conf.source.note !== undefined) log.error(`using the bundled log configuration: ${conf.source.note}`);
  for (const override of conf.envOverrides) log.advisory(`Using env: ${override}`);
  for (const binding of bindings) {
    const scope = binding.scope === '' ? '' : ` scope=${binding.scope}`;
    log.advisory(`writer ${binding.name}: ${binding.writer.describe()} levels=${describeLevelMask(binding.levelMask)}${scope}`);
  }
}
