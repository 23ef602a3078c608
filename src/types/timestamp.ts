// Timestamps as numbers of µs since the Unix epoch (UTC): QuestDB's ISO text forms in and out, calendar
// units for SAMPLE BY / dateadd / timestamp_floor, and partition floors and names. Parsers return undefined
// on bad text and never throw; callers turn that into their positioned error. Values are exact while
// |micros| < 2^53 (about years 1685-2255); outside that range the double rounds to nearby µs.
import { assert, assertNever } from '../core/assert.js';
import {
  MICROS_PER_DAY, MICROS_PER_HOUR, MICROS_PER_MINUTE, MICROS_PER_SECOND, MICROS_PER_WEEK, addMonths, addYears,
  civilFromDays, dayNumberOf, daysFromCivil, daysInMonth, floorMod, isoWeekYearOf, isoWeeksInYear,
  isoYearStartDays, weekOfYear,
} from './timestamp-calendar.js';
import type { CivilDate } from './timestamp-calendar.js';
import { formatYearPadded } from './timestamp-pattern.js';

export {
  addMonths, addYears, dayOfMonth, dayOfWeek, dayOfYear, daysInMonth, hourOf, isLeapYear, isoWeekYearOf,
  microsOfSecond, minuteOf, monthOf, secondOf, timestampFromParts, weekOfYear, yearOf,
} from './timestamp-calendar.js';
export { compileTimestampPattern, formatWithPattern, parseWithPattern } from './timestamp-pattern.js';
export type { TimestampPattern } from './timestamp-pattern.js';
export { parseTimestamp, parseTimestampPeriod } from './timestamp-parse.js';
export type { TimestampPeriod } from './timestamp-parse.js';

/** U µs, T ms, s second, m minute, h hour, d day, w week, M month, y year — case-sensitive, as in QuestDB. */
export type TimeUnit = 'U' | 'T' | 's' | 'm' | 'h' | 'd' | 'w' | 'M' | 'y';

export type PartitionUnit = 'NONE' | 'HOUR' | 'DAY' | 'WEEK' | 'MONTH' | 'YEAR';
export const PARTITION_UNITS: readonly PartitionUnit[] = ['NONE', 'HOUR', 'DAY', 'WEEK', 'MONTH', 'YEAR'];

/** The unit a `partitionBy` parameter names (any case; empty = NONE), or undefined for an unknown name. */
export function partitionUnitOf(text: string): PartitionUnit | undefined {
  const name = text.toUpperCase() || 'NONE';
  return PARTITION_UNITS.find((unit) => unit === name);
}

const PAD2: readonly string[] = Array.from({ length: 100 }, (_, n) => String(n).padStart(2, '0'));
const PAD3: readonly string[] = Array.from({ length: 1000 }, (_, n) => String(n).padStart(3, '0'));

/**
 * A year as QuestDB's `yyyy` prints it (MicrosFormatUtils.appendYear000): zero-padded to four characters by
 * magnitude, the sign after the padding, and year 0 printed as 1 ("0001", "-51129", "000-5").
 */
export function formatYear(year: number): string {
  return year >= 1000 && year <= 9999 ? String(year) : formatYearPadded(year, 4);
}

const civil: CivilDate = { year: 0, month: 0, day: 0 };
// Result rows are mostly time-ordered, so consecutive values usually share their date and often their second:
// keep the last text of each. Divisions below are exact for |micros| < 2^53 (quotients stay far below 2^52).
/** From 2^53 on a double holds only some integers and float division is no longer exact. */
const EXACT_LIMIT = 2 ** 53;
let cachedDays = Number.NaN;
let cachedDatePrefix = '';
let cachedSecond = Number.NaN;
let cachedSecondPrefix = '';

/** "yyyy-MM-ddT" for a day number. */
function datePrefixOf(days: number): string {
  if (days !== cachedDays) {
    civilFromDays(days, civil);
    cachedDatePrefix = `${formatYear(civil.year)}-${PAD2[civil.month]}-${PAD2[civil.day]}T`;
    cachedDays = days;
  }
  return cachedDatePrefix;
}

/** "yyyy-MM-ddThh:mm:ss." for a number of seconds since the epoch. */
function secondPrefixOf(second: number): string {
  if (second !== cachedSecond) {
    const days = Math.floor(second / 86_400);
    const secondOfDay = second - days * 86_400;
    const hour = (secondOfDay / 3600) | 0;
    const minute = ((secondOfDay - hour * 3600) / 60) | 0;
    const clock = `${PAD2[hour]}:${PAD2[minute]}:${PAD2[secondOfDay - hour * 3600 - minute * 60]}.`;
    cachedSecondPrefix = datePrefixOf(days) + clock;
    cachedSecond = second;
  }
  return cachedSecondPrefix;
}

/** TIMESTAMP text: "2024-01-01T00:00:00.000000Z", always six fraction digits. */
export function formatTimestamp(micros: number): string {
  if (micros >= EXACT_LIMIT || micros <= -EXACT_LIMIT) return formatWideTimestamp(micros, 1_000_000n);
  const second = Math.floor(micros / MICROS_PER_SECOND);
  const fraction = micros - second * MICROS_PER_SECOND;
  const millis = (fraction / 1000) | 0;
  return `${secondPrefixOf(second)}${PAD3[millis]}${PAD3[fraction - millis * 1000]}Z`;
}

/** DATE text (milliseconds since the epoch): "2005-01-04T00:00:00.000Z". */
export function formatDate(millis: number): string {
  if (millis >= EXACT_LIMIT || millis <= -EXACT_LIMIT) return formatWideTimestamp(millis, 1000n);
  const second = Math.floor(millis / 1000);
  const fraction = millis - second * 1000;
  return `${secondPrefixOf(second)}${PAD3[fraction]}Z`;
}

/** Every double beyond 2^53 is an integer, so BigInt splits it exactly into seconds and a fraction. */
/** Values past the 64-bit range (a DOUBLE of 1e300 or Infinity cast to TIMESTAMP) saturate, as Java's (long) cast does. */
const INT64_MAX = 9223372036854775807n;

function formatWideTimestamp(value: number, unitsPerSecond: bigint): string {
  const exact = value >= 9223372036854775807 ? INT64_MAX : value <= -9223372036854775807 ? -INT64_MAX : BigInt(value);
  let second = exact / unitsPerSecond;
  if (exact < 0n && second * unitsPerSecond !== exact) second -= 1n;
  const fraction = Number(exact - second * unitsPerSecond);
  const tail = unitsPerSecond === 1000n
    ? PAD3[fraction]
    : `${PAD3[Math.floor(fraction / 1000)]}${PAD3[fraction % 1000]}`;
  return `${secondPrefixOf(Number(second))}${tail}Z`;
}

type FixedTimeUnit = Exclude<TimeUnit, 'M' | 'y'>;

const FIXED_UNIT_MICROS: Readonly<Record<FixedTimeUnit, number>> = {
  U: 1, T: 1000, s: MICROS_PER_SECOND, m: MICROS_PER_MINUTE, h: MICROS_PER_HOUR, d: MICROS_PER_DAY,
  w: MICROS_PER_WEEK,
};

export function isTimeUnit(text: string): text is TimeUnit {
  return text === 'M' || text === 'y' || Object.hasOwn(FIXED_UNIT_MICROS, text);
}

/** µs in one unit; undefined for the calendar units M and y. */
export function unitMicros(unit: TimeUnit): number | undefined {
  return unit === 'M' || unit === 'y' ? undefined : FIXED_UNIT_MICROS[unit];
}

/**
 * Start of the `count`-unit bucket holding `micros`, as QuestDB's timestamp_floor without an offset does:
 * buckets are counted from the epoch — 1970-01-01 for fixed units, months since 1970-01, years since 1970 —
 * and weeks start on Monday (counted from Monday 1969-12-29).
 */
export function floorToUnit(micros: number, count: number, unit: TimeUnit): number {
  assert(Number.isInteger(count) && count >= 1, 'bucket counts are validated as positive integers by the binder');
  switch (unit) {
    case 'M': {
      const days = dayNumberOf(micros);
      civilFromDays(days, civil);
      const months = (civil.year - 1970) * 12 + civil.month - 1;
      const bucket = months - floorMod(months, count);
      const year = 1970 + Math.floor(bucket / 12);
      return daysFromCivil(year, bucket - (year - 1970) * 12 + 1, 1) * MICROS_PER_DAY;
    }
    case 'y': {
      const year = civilFromDays(dayNumberOf(micros), civil).year;
      return daysFromCivil(year - floorMod(year - 1970, count), 1, 1) * MICROS_PER_DAY;
    }
    case 'w':
      return micros - floorMod(micros + 3 * MICROS_PER_DAY, count * MICROS_PER_WEEK);
    case 'U': case 'T': case 's': case 'm': case 'h': case 'd':
      return micros - floorMod(micros, count * FIXED_UNIT_MICROS[unit]);
    default:
      return assertNever(unit, 'time unit');
  }
}

/** `micros` plus `count` units (negative goes back); months clamp the day of month, years follow QuestDB. */
export function addUnits(micros: number, count: number, unit: TimeUnit): number {
  if (unit === 'M') return addMonths(micros, count);
  if (unit === 'y') return addYears(micros, count);
  return micros + count * FIXED_UNIT_MICROS[unit];
}

/** First µs of the partition holding `micros`; -Infinity for NONE (one partition covers all time). */
export function partitionFloor(micros: number, unit: PartitionUnit): number {
  switch (unit) {
    case 'NONE': return -Infinity;
    case 'HOUR': return micros - floorMod(micros, MICROS_PER_HOUR);
    case 'DAY': return micros - floorMod(micros, MICROS_PER_DAY);
    case 'WEEK': return floorToUnit(micros, 1, 'w');
    case 'MONTH': return floorToUnit(micros, 1, 'M');
    case 'YEAR': return floorToUnit(micros, 1, 'y');
    default: return assertNever(unit, 'partition unit');
  }
}

/** First µs of the next partition; Infinity for NONE. */
export function partitionCeilExclusive(micros: number, unit: PartitionUnit): number {
  const floor = partitionFloor(micros, unit);
  switch (unit) {
    case 'NONE': return Infinity;
    case 'HOUR': return floor + MICROS_PER_HOUR;
    case 'DAY': return floor + MICROS_PER_DAY;
    case 'WEEK': return floor + MICROS_PER_WEEK;
    case 'MONTH': return addMonths(floor, 1);
    case 'YEAR': return addYears(floor, 1);
    default: return assertNever(unit, 'partition unit');
  }
}

/** Partition directory name: 2024-01-01T10 (HOUR), 2024-01-01, 2024-W01 (ISO week), 2024-01, 2024, default. */
export function partitionName(micros: number, unit: PartitionUnit): string {
  if (unit === 'NONE') return 'default';
  const floor = partitionFloor(micros, unit);
  if (unit === 'WEEK') return `${formatYear(isoWeekYearOf(floor))}-W${PAD2[weekOfYear(floor)]}`;
  const text = formatTimestamp(floor);
  const length = unit === 'HOUR' ? 13 : unit === 'DAY' ? 10 : unit === 'MONTH' ? 7 : 4;
  return text.slice(0, text.length - 27 + length); // keeps any extra year digits or sign in front
}

const PARTITION_NAME_PATTERN: Readonly<Record<Exclude<PartitionUnit, 'NONE'>, RegExp>> = {
  HOUR: /^(\d{4})-(\d{2})-(\d{2})T(\d{2})$/,
  DAY: /^(\d{4})-(\d{2})-(\d{2})$/,
  WEEK: /^(\d{4})-W(\d{2})$/,
  MONTH: /^(\d{4})-(\d{2})$/,
  YEAR: /^(\d{4})$/,
};

/** Start µs of the partition a directory name denotes; undefined when the name does not fit the unit. */
export function parsePartitionName(name: string, unit: PartitionUnit): number | undefined {
  if (unit === 'NONE') return name === 'default' ? -Infinity : undefined;
  const match = PARTITION_NAME_PATTERN[unit].exec(name);
  if (match === null) return undefined;
  const year = Number(match[1]);
  const second = Number(match[2] ?? '1');
  if (unit === 'WEEK') {
    if (second < 1 || second > isoWeeksInYear(year)) return undefined;
    return (isoYearStartDays(year) + (second - 1) * 7) * MICROS_PER_DAY;
  }
  const day = Number(match[3] ?? '1');
  const hour = Number(match[4] ?? '0');
  if (second < 1 || second > 12 || day < 1 || day > daysInMonth(year, second) || hour > 23) return undefined;
  return daysFromCivil(year, second, day) * MICROS_PER_DAY + hour * MICROS_PER_HOUR;
}
