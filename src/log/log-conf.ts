// log.conf + SVC_LOG_<KEY> environment overrides + the debug switch → a typed, validated LogConf.
// Every key is looked up as env first, then the file, then the key table's default — for every key of every listed
// writer, whether or not the file mentions it (QuestDB only consults env for keys present in the file, except a few).
// Strictness where QuestDB is silent: a listed writer without a class, an unknown class, level or property, and
// unknown top-level keys are start-up errors naming the key. QuestDB class names (io.questdb.log.*) are accepted.
import { resolve } from 'node:path';
import { ConfigError } from '../core/errors.js';
import { assert, assertNever } from '../core/assert.js';
import {
  LOG_GLOBAL_KEYS, LOG_WRITER_CLASSES, LOG_WRITER_FIELDS, logEnvName, writerKey, writerKindOfClass, type LogWriterKind,
} from '../config/log-keys.js';
import { parseProperties } from '../config/properties.js';
import { FIELD_PARSERS, isRollUnit, parseCount, parseNameList, type ParsedFieldValue, type RollUnit } from './conf-values.js';
import { LEVEL_BITS, debugRequested, parseLevelList } from './levels.js';
import { compileLocation, type LocationTemplate } from './location-template.js';
import { parseAlertTargets, type AlertTarget } from './alert-targets.js';
import { bundledAlertTemplatePath, readLogConfSource, type LogConfSource } from './log-conf-file.js';

interface WriterCommon {
  readonly name: string;
  readonly levelMask: number;
  readonly scope: string;
}

export type WriterConf =
  | (WriterCommon & {
      readonly kind: 'rolling';
      readonly location: LocationTemplate;
      readonly rollEvery: RollUnit | undefined;
      readonly rollSizeBytes: number;
      readonly lifeDurationMs: number;
      readonly sizeLimitBytes: number;
      readonly bufferBytes: number;
    })
  | (WriterCommon & { readonly kind: 'file'; readonly location: LocationTemplate; readonly truncate: boolean; readonly bufferBytes: number })
  | (WriterCommon & { readonly kind: 'console'; readonly bufferBytes: number })
  | (WriterCommon & {
      readonly kind: 'alert';
      readonly templatePath: string;
      readonly targets: readonly AlertTarget[];
      readonly inBufferBytes: number;
      readonly outBufferBytes: number;
      readonly reconnectDelayMs: number;
      readonly sendTimeoutMs: number;
      readonly queueAlertsMax: number;
    });

export interface LogConf {
  readonly source: LogConfSource;
  readonly logDir: string;
  readonly recordLength: number;
  readonly debug: boolean;
  readonly writers: readonly WriterConf[];
  /** `NAME=value` for every SVC_LOG_* variable that was applied, for the start-up advisory. */
  readonly envOverrides: readonly string[];
}

export interface LogConfOptions {
  readonly rootDir: string;
  readonly env: NodeJS.ProcessEnv;
  readonly logConfPath?: string;
  readonly debug?: boolean;
}

const QUESTDB_CLASS_PREFIX = 'io.questdb.log.';
const SVC_CLASS_PREFIX = 'io.svc.log.';
/** Fewest characters recordLength may be: shorter would cut ordinary one-line records. */
const RECORD_LENGTH_MIN = 256;

/** Looks keys up env-first and remembers which variables it used. */
class KeyLookup {
  readonly used = new Map<string, string>();
  constructor(private readonly file: ReadonlyMap<string, { readonly value: string }>, private readonly env: NodeJS.ProcessEnv) {}

  get(key: string): string | undefined {
    const envName = logEnvName(key);
    const fromEnv = this.env[envName];
    if (fromEnv !== undefined) {
      this.used.set(envName, fromEnv);
      return fromEnv.trim();
    }
    return this.file.get(key)?.value.trim();
  }
}

export function loadLogConf(options: LogConfOptions): LogConf {
  const source = readLogConfSource(options.rootDir, options.logConfPath);
  const entries = parseProperties(source.text, source.path).entries;
  const lookup = new KeyLookup(entries, options.env);
  const global = (name: string): string => lookup.get(name) ?? LOG_GLOBAL_KEYS.find((key) => key.name === name)?.defaultValue ?? '';
  const writerNames = parseNameList(global('writers'), 'writers');
  const logDir = resolve(options.rootDir, global('log.dir'));
  const recordLength = parseCount(global('recordLength'), 'recordLength');
  if (recordLength < RECORD_LENGTH_MIN) throw new ConfigError('recordLength', `must be at least ${RECORD_LENGTH_MIN}`);
  checkTopLevelKeys(entries.keys());
  const debug = options.debug === true || debugRequested(options.env);
  const context: WriterContext = { rootDir: options.rootDir, logDir, env: options.env, debug, lookup, fileKeys: [...entries.keys()], writerNames };
  const writers = writerNames.map((name) => resolveWriter(name, context));
  const envOverrides = [...lookup.used].map(([name, value]) => `${name}=${value}`);
  return { source, logDir, recordLength, debug, writers, envOverrides };
}

interface WriterContext {
  readonly rootDir: string;
  readonly logDir: string;
  readonly env: NodeJS.ProcessEnv;
  readonly debug: boolean;
  readonly lookup: KeyLookup;
  readonly fileKeys: readonly string[];
  readonly writerNames: readonly string[];
}

function checkTopLevelKeys(keys: Iterable<string>): void {
  for (const key of keys) {
    if (key.startsWith('w.') || LOG_GLOBAL_KEYS.some((global) => global.name === key)) continue;
    throw new ConfigError(key, `Unknown property: ${key}`);
  }
}

function resolveWriter(name: string, context: WriterContext): WriterConf {
  const classKey = writerKey(name, 'class');
  const className = context.lookup.get(classKey);
  if (className === undefined || className.length === 0) throw new ConfigError(classKey, `writer ${name} is listed in writers but has no class`);
  const kind = writerKindOfClass(className.replace(QUESTDB_CLASS_PREFIX, SVC_CLASS_PREFIX));
  if (kind === undefined) throw new ConfigError(classKey, `Unknown writer class ${className}; expected one of ${Object.values(LOG_WRITER_CLASSES).join(', ')}`);
  checkWriterFileKeys(name, kind, context);
  const values = new Map<string, ParsedFieldValue>();
  for (const field of LOG_WRITER_FIELDS) {
    const fallback = field.defaults[kind];
    if (fallback === undefined || field.field === 'class') continue;
    const key = writerKey(name, field.field);
    values.set(field.field, FIELD_PARSERS[field.type](context.lookup.get(key) ?? fallback, key));
  }
  const common = { name, levelMask: writerLevelMask(name, kind, text(values, 'level'), context.debug), scope: text(values, 'scope') };
  return buildWriterConf(kind, common, values, context);
}

/** File keys `w.<name>.<field>` of this writer must name a field its class accepts (QuestDB: `Unknown property`). */
function checkWriterFileKeys(name: string, kind: LogWriterKind, context: WriterContext): void {
  const prefix = `w.${name}.`;
  for (const key of context.fileKeys) {
    if (!key.startsWith(prefix)) continue;
    // `w.http.min.level` belongs to writer `http.min`, not to a writer named `http`.
    const longer = context.writerNames.some((other) => other.length > name.length && key.startsWith(`w.${other}.`));
    if (longer) continue;
    const fieldName = key.slice(prefix.length);
    const field = LOG_WRITER_FIELDS.find((candidate) => candidate.field === fieldName);
    if (field === undefined || (field.field !== 'class' && field.defaults[kind] === undefined)) {
      throw new ConfigError(key, `Unknown property: ${key} (not a field of ${LOG_WRITER_CLASSES[kind]})`);
    }
  }
}

function writerLevelMask(name: string, kind: LogWriterKind, levels: string, debug: boolean): number {
  let mask = parseLevelList(levels, writerKey(name, 'level'));
  if (kind === 'alert') {
    // Alerts are for what needs a person; start-up advisories and debug detail never become alerts.
    mask &= ~(LEVEL_BITS.A | LEVEL_BITS.D);
    if (mask === 0) throw new ConfigError(writerKey(name, 'level'), 'the alert writer needs a level other than ADVISORY and DEBUG');
  } else if (debug) {
    mask |= LEVEL_BITS.D;
  }
  return mask;
}

function buildWriterConf(kind: LogWriterKind, common: WriterCommon, values: ReadonlyMap<string, ParsedFieldValue>, context: WriterContext): WriterConf {
  const location = (): LocationTemplate =>
    compileLocation(text(values, 'location'), { key: writerKey(common.name, 'location'), rootDir: context.rootDir, logDir: context.logDir, env: context.env });
  switch (kind) {
    case 'rolling': {
      const rollEvery = text(values, 'rollEvery');
      return {
        ...common, kind, location: location(), rollEvery: isRollUnit(rollEvery) ? rollEvery : undefined,
        rollSizeBytes: num(values, 'rollSize'), lifeDurationMs: num(values, 'lifeDuration'),
        sizeLimitBytes: num(values, 'sizeLimit'), bufferBytes: positive(values, 'bufferSize', common.name),
      };
    }
    case 'file':
      return { ...common, kind, location: location(), truncate: values.get('truncate') === true, bufferBytes: positive(values, 'bufferSize', common.name) };
    case 'console':
      return { ...common, kind, bufferBytes: positive(values, 'bufferSize', common.name) };
    case 'alert': {
      const targetsKey = writerKey(common.name, 'alertTargets');
      return {
        ...common, kind,
        templatePath: text(values, 'location').length === 0 ? bundledAlertTemplatePath() : location().pathAt(Date.now() * 1000, 0),
        targets: parseAlertTargets(text(values, 'alertTargets'), text(values, 'defaultAlertHost'), num(values, 'defaultAlertPort'), targetsKey),
        inBufferBytes: positive(values, 'inBufferSize', common.name), outBufferBytes: positive(values, 'outBufferSize', common.name),
        reconnectDelayMs: num(values, 'reconnectDelay'), sendTimeoutMs: positive(values, 'sendTimeoutMs', common.name),
        queueAlertsMax: positive(values, 'queueAlertsMax', common.name),
      };
    }
    default:
      return assertNever(kind, 'writer kind');
  }
}

function text(values: ReadonlyMap<string, ParsedFieldValue>, field: string): string {
  const value = values.get(field);
  assert(typeof value === 'string', `field ${field} is parsed as text by the key table`);
  return value;
}

function num(values: ReadonlyMap<string, ParsedFieldValue>, field: string): number {
  const value = values.get(field);
  assert(typeof value === 'number', `field ${field} is parsed as a number by the key table`);
  return value;
}

function positive(values: ReadonlyMap<string, ParsedFieldValue>, field: string, writerName: string): number {
  const value = num(values, field);
  if (value <= 0) throw new ConfigError(writerKey(writerName, field), 'must be greater than 0');
  return value;
}
