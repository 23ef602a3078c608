// Text → typed value for one server.conf key, by the key's type and bounds.
// Every rejection is a ConfigError naming the key, the offending text and where it came from, so start-up stops
// with a message an operator can act on. Sensitive values are never echoed.
import { ConfigError } from '../core/errors.js';
import { assert, assertNever } from '../core/assert.js';
import { formatDurationMs, formatSizeBytes, parseDurationMs, parseSizeBytes } from './duration-size.js';
import type { KeyType, ServerKey } from './keys.js';

export interface BindAddress {
  readonly host: string;
  readonly port: number;
}

export type KeyValue = string | number | boolean | BindAddress | null;

/** Host used when an address is written as `:port`. */
const ANY_HOST = '0.0.0.0';
const PORT_MAX = 65535;

const INT_PATTERN = /^[-+]?\d+$/;
const DOUBLE_PATTERN = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
const BOOLEAN_PATTERN = /^(true|false)$/i;
const ADDRESS_PATTERN = /^(?:\[([0-9A-Fa-f:.]+)\]|([A-Za-z0-9.-]*)):(\d+)$/;

type TypeParser = (text: string, key: ServerKey, where: string) => Exclude<KeyValue, null>;

/** A Record so a new KeyType cannot compile until it has a parser. */
const PARSERS: Readonly<Record<KeyType, TypeParser>> = {
  string: (text) => text,
  int: parseIntValue,
  double: parseDoubleValue,
  boolean: parseBooleanValue,
  duration: parseDurationValue,
  size: parseSizeValue,
  enum: parseEnumValue,
  address: parseAddressValue,
};

/**
 * Parses `raw` for `key`. `raw` null means "not configured anywhere", which only keys without a default allow.
 * An empty value unsets a key without a default (`http.user=`) and is an error for every non-string key that has one.
 * `where` names the value's origin for error messages, e.g. `conf/server.conf:12` or `env SVC_QUERY_TIMEOUT`.
 */
export function parseKeyValue(key: ServerKey, raw: string | null, where: string): KeyValue {
  if (raw === null) {
    assert(key.default === null, `${key.name} has a default, so the layering always supplies a value`);
    return null;
  }
  const text = raw.trim();
  if (text.length === 0) {
    if (key.default === null) return null;
    if (key.type === 'string') return '';
    throw invalid(key, raw, where, `expected ${describeType(key)}, got an empty value`);
  }
  return PARSERS[key.type](text, key, where);
}

function parseIntValue(text: string, key: ServerKey, where: string): number {
  const value = INT_PATTERN.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(value)) throw invalid(key, text, where, 'expected an integer');
  checkBounds(key, text, where, value, String);
  return value;
}

function parseDoubleValue(text: string, key: ServerKey, where: string): number {
  const value = DOUBLE_PATTERN.test(text) ? Number(text) : Number.NaN;
  if (!Number.isFinite(value)) throw invalid(key, text, where, 'expected a decimal number');
  checkBounds(key, text, where, value, String);
  return value;
}

function parseBooleanValue(text: string, key: ServerKey, where: string): boolean {
  if (!BOOLEAN_PATTERN.test(text)) throw invalid(key, text, where, 'expected true or false');
  return text.toLowerCase() === 'true';
}

function parseDurationValue(text: string, key: ServerKey, where: string): number {
  const ms = parseDurationMs(text);
  if (ms === null) throw invalid(key, text, where, 'expected a duration such as 500ms, 60s, 2m, 1h (a plain number is milliseconds)');
  checkBounds(key, text, where, ms, formatDurationMs);
  return ms;
}

function parseSizeValue(text: string, key: ServerKey, where: string): number {
  const bytes = parseSizeBytes(text);
  if (bytes === null) throw invalid(key, text, where, 'expected a size such as 64k, 4m, 1g (a plain number is bytes)');
  checkBounds(key, text, where, bytes, formatSizeBytes);
  return bytes;
}

/** Enum values match case-insensitively and come back in the table's spelling. */
function parseEnumValue(text: string, key: ServerKey, where: string): string {
  const allowed = key.enumValues ?? [];
  assert(allowed.length > 0, `enum key ${key.name} lists its values`);
  const match = allowed.find((value) => value.toLowerCase() === text.toLowerCase());
  if (match === undefined) throw invalid(key, text, where, `expected one of ${allowed.join(', ')}`);
  return match;
}

/** `host:port`, `[ipv6]:port` or `:port` (any host). Port 0 asks the OS for a free port. */
function parseAddressValue(text: string, key: ServerKey, where: string): BindAddress {
  const match = ADDRESS_PATTERN.exec(text);
  if (match === null) throw invalid(key, text, where, 'expected host:port, e.g. 0.0.0.0:9000 or [::1]:9000');
  const host = match[1] ?? match[2] ?? '';
  const port = Number(match[3]);
  if (!Number.isSafeInteger(port) || port > PORT_MAX) {
    throw invalid(key, text, where, `port ${match[3] ?? ''} is out of range 0-${PORT_MAX}`);
  }
  return { host: host.length === 0 ? ANY_HOST : host, port };
}

function checkBounds(key: ServerKey, text: string, where: string, value: number, format: (n: number) => string): void {
  if (key.min !== undefined && value < key.min) throw invalid(key, text, where, `must be at least ${format(key.min)}`);
  if (key.max !== undefined && value > key.max) throw invalid(key, text, where, `must be at most ${format(key.max)}`);
}

function describeType(key: ServerKey): string {
  switch (key.type) {
    case 'int': return 'an integer';
    case 'double': return 'a decimal number';
    case 'boolean': return 'true or false';
    case 'duration': return 'a duration';
    case 'size': return 'a size';
    case 'enum': return `one of ${(key.enumValues ?? []).join(', ')}`;
    case 'address': return 'host:port';
    case 'string': return 'a string';
    default: return assertNever(key.type, 'key type');
  }
}

function invalid(key: ServerKey, text: string, where: string, expectation: string): ConfigError {
  const shown = key.sensitive === true ? '****' : text;
  return new ConfigError(key.name, `invalid value '${shown}' for ${key.name} (from ${where}): ${expectation}`);
}
