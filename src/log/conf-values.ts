// Text → value for log.conf fields, one parser per LogKeyType; every rejection is a ConfigError naming the key.
// Sizes reuse config/duration-size.ts (k, m, g, t; 1024-based). Life durations keep QuestDB's units, where case
// matters: `m` is minutes and `M` months (`1M` is a month), so they have their own parser here.
import { ConfigError } from '../core/errors.js';
import { assertNever } from '../core/assert.js';
import { parseSizeBytes } from '../config/duration-size.js';
import type { LogKeyType } from '../config/log-keys.js';

export type RollUnit = 'minute' | 'hour' | 'day' | 'month' | 'year';
export type ParsedFieldValue = string | number | boolean | readonly string[];

const ROLL_UNITS: readonly RollUnit[] = ['minute', 'hour', 'day', 'month', 'year'];
const LIFE_DURATION_PATTERN = /^(\d+)(ms|s|m|h|d|w|M|y)?$/;
const DAY_MS = 86_400_000;
const MS_PER_LIFE_UNIT: Readonly<Record<string, number>> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: DAY_MS,
  w: 7 * DAY_MS,
  // Calendar months and years vary; retention only needs an age bound, so fixed lengths are enough.
  M: 30 * DAY_MS,
  y: 365 * DAY_MS,
};
const COUNT_PATTERN = /^\d+$/;
const PORT_MAX = 65535;
const HOST_PATTERN = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+|[0-9A-Fa-f:]+)$/;

type FieldParser = (text: string, key: string) => ParsedFieldValue;

/** A Record so a new LogKeyType cannot compile until it has a parser. */
export const FIELD_PARSERS: Readonly<Record<LogKeyType, FieldParser>> = {
  string: (text) => text,
  names: parseNameList,
  class: (text) => text,
  levels: (text) => text,
  bytes: parseBytes,
  duration: parseLifeDurationMs,
  count: parseCount,
  millis: parseCount,
  boolean: parseBoolean,
  rollEvery: parseRollEvery,
  targets: (text) => text,
  host: parseHost,
  port: parsePort,
};

/** `a, b,,c` → ['a', 'b', 'c']; a repeated name is an error (two writers cannot share a name). */
export function parseNameList(text: string, key: string): readonly string[] {
  const names = text.split(',').map((name) => name.trim()).filter((name) => name.length > 0);
  const seen = new Set<string>();
  for (const name of names) {
    if (seen.has(name)) throw new ConfigError(key, `writer ${name} is listed twice`);
    seen.add(name);
  }
  return names;
}

/** `128m` → bytes; empty or 0 means "no bound" and yields 0. */
export function parseBytes(text: string, key: string): number {
  if (text.length === 0) return 0;
  const bytes = parseSizeBytes(text);
  if (bytes === null) throw new ConfigError(key, `Invalid size: ${text} (expected e.g. 64k, 128m, 1g)`);
  return bytes;
}

/** `7d`, `12h`, `1M` → milliseconds; a plain number is milliseconds; empty or 0 means "keep forever" (0). */
export function parseLifeDurationMs(text: string, key: string): number {
  if (text.length === 0) return 0;
  const match = LIFE_DURATION_PATTERN.exec(text);
  const perUnit = match === null ? undefined : MS_PER_LIFE_UNIT[match[2] ?? 'ms'];
  const value = match === null || perUnit === undefined ? Number.NaN : Number(match[1]) * perUnit;
  if (!Number.isSafeInteger(value)) {
    throw new ConfigError(key, `Invalid duration: ${text} (expected a number with s, m, h, d, w, M or y, e.g. 7d)`);
  }
  return value;
}

export function parseCount(text: string, key: string): number {
  const value = COUNT_PATTERN.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(value)) throw new ConfigError(key, `Invalid value: ${text} (expected a whole number)`);
  return value;
}

export function parseBoolean(text: string, key: string): boolean {
  const lower = text.toLowerCase();
  if (lower !== 'true' && lower !== 'false') throw new ConfigError(key, `Invalid value: ${text} (expected true or false)`);
  return lower === 'true';
}

/** A roll unit, or '' for never (also spelled `none` or `never`). */
export function parseRollEvery(text: string, key: string): string {
  const lower = text.toLowerCase();
  if (lower === '' || lower === 'none' || lower === 'never') return '';
  const unit = ROLL_UNITS.find((candidate) => candidate === lower);
  if (unit === undefined) throw new ConfigError(key, `Invalid rollEvery: ${text} (expected minute, hour, day, month, year or none)`);
  return unit;
}

export function isRollUnit(value: string): value is RollUnit {
  return ROLL_UNITS.some((unit) => unit === value);
}

export function parseHost(text: string, key: string): string {
  if (!HOST_PATTERN.test(text)) throw new ConfigError(key, `Invalid host value: ${text}`);
  return text.startsWith('[') ? text.slice(1, -1) : text;
}

export function parsePort(text: string, key: string): number {
  const port = COUNT_PATTERN.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(port) || port < 1 || port > PORT_MAX) throw new ConfigError(key, `Invalid port value: ${text} (expected 1-${PORT_MAX})`);
  return port;
}

/** The first boundary of `unit` strictly after `nowMillis`, in UTC (QuestDB: floor(now) + 1 unit). */
export function nextRollBoundaryMillis(nowMillis: number, unit: RollUnit): number {
  const date = new Date(nowMillis);
  switch (unit) {
    case 'minute': return (Math.floor(nowMillis / 60_000) + 1) * 60_000;
    case 'hour': return (Math.floor(nowMillis / 3_600_000) + 1) * 3_600_000;
    case 'day': return (Math.floor(nowMillis / DAY_MS) + 1) * DAY_MS;
    case 'month': return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
    case 'year': return Date.UTC(date.getUTCFullYear() + 1, 0, 1);
    default: return assertNever(unit, 'roll unit');
  }
}
