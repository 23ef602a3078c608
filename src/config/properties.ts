// Reads key=value files, creates the default server.conf, and layers raw values: default < conf < env < CLI.
// Owns the text level only: values stay strings here and carry their source (default|conf|env|cli) and origin,
// so server-config.ts can parse them and the start-up advisory log can say where each value came from.
// Unknown keys in the file or in SVC_* variables are kept as warnings; only the caller decides whether they are fatal.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ConfigError } from '../core/errors.js';
import { assert } from '../core/assert.js';
import { renderDefaultServerConf } from './config-docs.js';
import { SERVER_ENV_PREFIX, SERVER_KEYS, envNameForKey, findServerKey, findServerKeyByEnvName, type ServerKey } from './keys.js';

export type ValueSource = 'default' | 'conf' | 'env' | 'cli';

export interface PropertiesEntry {
  readonly value: string;
  /** 1-based line of the entry, for error messages. */
  readonly line: number;
}

export interface ParsedProperties {
  readonly path: string;
  /** Entries in file order; a repeated key keeps its last value, as java.util.Properties does. */
  readonly entries: ReadonlyMap<string, PropertiesEntry>;
  readonly warnings: readonly string[];
}

export interface RawValue {
  readonly key: ServerKey;
  /** Text as configured (trimmed); null only for a key without a default that nobody set. */
  readonly raw: string | null;
  readonly source: ValueSource;
  /** Human-readable origin: `default`, `<path>:<line>`, `env SVC_…` or `command line`. */
  readonly where: string;
}

export interface LayeredValues {
  /** One value per canonical key name, in SERVER_KEYS order. */
  readonly values: ReadonlyMap<string, RawValue>;
  /** Names in the conf file that are not keys (fatal when config.validation.strict is on). */
  readonly unknownConfKeys: readonly string[];
  readonly warnings: readonly string[];
}

export interface LayerInput {
  readonly conf: ParsedProperties | null;
  readonly env: NodeJS.ProcessEnv;
  readonly cli: Readonly<Record<string, string>>;
}

/** SVC_* variables that belong to other parts of the service, so they are not reported as unknown server keys. */
const FOREIGN_ENV_PREFIXES = ['SVC_LOG_', 'SVC_DEBUG', 'SVC_VERSION'];

/** Parses `key=value` lines: `#` and `!` start comments, blank lines are skipped, key and value are trimmed. */
export function parseProperties(text: string, path: string): ParsedProperties {
  const entries = new Map<string, PropertiesEntry>();
  const warnings: string[] = [];
  const lines = text.split(/\r?\n/);
  for (let index = 0; index < lines.length; index++) {
    const line = (lines[index] ?? '').trim();
    if (line.length === 0 || line.startsWith('#') || line.startsWith('!')) continue;
    const equals = line.indexOf('=');
    const where = `${path}:${index + 1}`;
    if (equals <= 0) throw new ConfigError(line, `${where}: expected key=value, got '${line}'`);
    const key = line.slice(0, equals).trim();
    if (entries.has(key)) warnings.push(`${where}: ${key} is set more than once; the last value wins`);
    entries.set(key, { value: line.slice(equals + 1).trim(), line: index + 1 });
  }
  return { path, entries, warnings };
}

/** Reads and parses a properties file, or returns null when it does not exist. */
export function readPropertiesFile(path: string): ParsedProperties | null {
  if (!existsSync(path)) return null;
  return parseProperties(readFileSync(path, 'utf8'), path);
}

/**
 * Writes the default server.conf at `path` unless a file is already there; returns whether it wrote one.
 * The exclusive-create flag means concurrent starters never overwrite each other or an operator's file; a reader
 * racing the write can only see a prefix of an all-comments file, which yields the same defaults.
 */
export function createDefaultServerConf(path: string): boolean {
  if (existsSync(path)) return false;
  mkdirSync(dirname(path), { recursive: true });
  try {
    writeFileSync(path, renderDefaultServerConf(), { flag: 'wx' });
    return true;
  } catch (error) {
    if (isErrnoCode(error, 'EEXIST')) return false;
    throw error;
  }
}

/** Picks each key's winning raw value: CLI beats env beats the conf file beats the default. */
export function layerServerValues(input: LayerInput): LayeredValues {
  const warnings: string[] = [...(input.conf?.warnings ?? [])];
  const values = new Map<string, RawValue>();
  checkCliKeys(input.cli);
  for (const key of SERVER_KEYS) {
    const chosen =
      pickCli(key, input.cli) ??
      pickEnv(key, input.env, warnings) ??
      pickConf(key, input.conf, warnings) ??
      { key, raw: key.default, source: 'default', where: 'default' };
    values.set(key.name, chosen);
  }
  const unknownConfKeys = findUnknownConfKeys(input.conf);
  for (const name of unknownConfKeys) {
    const line = input.conf?.entries.get(name)?.line ?? 0;
    warnings.push(`${input.conf?.path ?? 'server.conf'}:${line}: unknown key ${name} (ignored)`);
  }
  for (const envName of findUnknownEnvNames(input.env)) {
    warnings.push(`environment variable ${envName} is not a server.conf key (ignored)`);
  }
  assert(values.size === SERVER_KEYS.length, 'every key gets exactly one layered value');
  return { values, unknownConfKeys, warnings };
}

/** A CLI override names a key explicitly, so a misspelt one is an error rather than a warning. */
function checkCliKeys(cli: Readonly<Record<string, string>>): void {
  for (const name of Object.keys(cli)) {
    if (findServerKey(name) === undefined) throw new ConfigError(name, `unknown configuration key '${name}' on the command line`);
  }
}

function pickCli(key: ServerKey, cli: Readonly<Record<string, string>>): RawValue | undefined {
  for (const name of [key.name, ...(key.aliases ?? [])]) {
    const value = cli[name];
    if (value !== undefined) return { key, raw: value.trim(), source: 'cli', where: 'command line' };
  }
  return undefined;
}

function pickEnv(key: ServerKey, env: NodeJS.ProcessEnv, warnings: string[]): RawValue | undefined {
  const found = [key.name, ...(key.aliases ?? [])]
    .map(envNameForKey)
    .filter((envName) => env[envName] !== undefined);
  const envName = found[0];
  if (envName === undefined) return undefined;
  if (found.length > 1) warnings.push(`${found.join(' and ')} are both set; using ${envName}`);
  return { key, raw: (env[envName] ?? '').trim(), source: 'env', where: `env ${envName}` };
}

function pickConf(key: ServerKey, conf: ParsedProperties | null, warnings: string[]): RawValue | undefined {
  if (conf === null) return undefined;
  const found = [key.name, ...(key.aliases ?? [])].filter((name) => conf.entries.has(name));
  const name = found[0];
  const entry = name === undefined ? undefined : conf.entries.get(name);
  if (entry === undefined) return undefined;
  if (found.length > 1) warnings.push(`${conf.path}: ${found.join(' and ')} are both set; using ${name ?? ''}`);
  return { key, raw: entry.value, source: 'conf', where: `${conf.path}:${entry.line}` };
}

function findUnknownConfKeys(conf: ParsedProperties | null): string[] {
  if (conf === null) return [];
  return [...conf.entries.keys()].filter((name) => findServerKey(name) === undefined);
}

function findUnknownEnvNames(env: NodeJS.ProcessEnv): string[] {
  return Object.keys(env)
    .filter((name) => name.startsWith(SERVER_ENV_PREFIX))
    .filter((name) => !FOREIGN_ENV_PREFIXES.some((prefix) => name.startsWith(prefix)))
    .filter((name) => findServerKeyByEnvName(name) === undefined)
    .sort();
}

function isErrnoCode(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === code;
}
