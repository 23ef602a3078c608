// Runtime helpers of the date/time functions (dateadd, datediff, timestamp_floor/ceil, date_trunc, extract,
// the calendar parts, time zones, patterns). Timestamps are µs numbers with NaN as null and every helper
// returns NaN (or null for text) for a null input. Units and zones parsed at bind time arrive as constants.
import type { TimeUnit, TimestampPattern } from '../../types/timestamp.js';
import {
  addUnits, dayOfMonth, dayOfWeek, dayOfYear, daysInMonth, floorToUnit, formatWithPattern, hourOf, isLeapYear,
  isoWeekYearOf, microsOfSecond, minuteOf, monthOf, parseTimestamp, parseWithPattern, secondOf, weekOfYear, yearOf,
} from '../../types/timestamp.js';
import { MICROS_PER_DAY, MICROS_PER_SECOND, MICROS_PER_WEEK, daysFromCivil } from '../../types/timestamp-calendar.js';
import type { TimeZone } from '../../types/time-zone.js';
import { localToUtc, resolveTimeZone } from '../../types/time-zone.js';

/** A parsed timestamp_floor / timestamp_ceil unit such as '15m' (stride 15, unit m). */
export interface UnitSpec {
  readonly stride: number;
  readonly unit: TimeUnit;
}

const FIXED_DIFF_MICROS: Readonly<Record<string, number>> = {
  u: 1, U: 1, T: 1000, s: MICROS_PER_SECOND, m: 60 * MICROS_PER_SECOND, h: 3600 * MICROS_PER_SECOND, d: MICROS_PER_DAY,
  w: MICROS_PER_WEEK,
};

/** dateadd's unit letters onto calendar units; 'n' (nanoseconds) has no µs equivalent and yields null. */
function addUnit(unit: string): TimeUnit | undefined {
  switch (unit) {
    case 'u': case 'U': return 'U';
    case 'T': case 's': case 'm': case 'h': case 'd': case 'w': case 'M': case 'y': return unit;
    default: return undefined;
  }
}

/** Whole months from a to b (a <= b): the month count less one when b's day and time fall before a's. */
function monthsBetween(a: number, b: number): number {
  const aMonthStart = floorToUnit(a, 1, 'M');
  const bMonthStart = floorToUnit(b, 1, 'M');
  const months = (yearOf(b) - yearOf(a)) * 12 + monthOf(b) - monthOf(a);
  return b - bMonthStart < a - aMonthStart ? months - 1 : months;
}

function floorFrom(spec: UnitSpec, micros: number, origin: number): number {
  if (spec.unit === 'M' || spec.unit === 'y') {
    const stride = spec.unit === 'y' ? spec.stride * 12 : spec.stride;
    const months = micros >= origin ? monthsBetween(origin, micros) : -monthsBetween(micros, origin) - 1;
    const aligned = months - (((months % stride) + stride) % stride);
    const floored = addUnits(origin, aligned, 'M');
    return floored > micros ? addUnits(origin, aligned - stride, 'M') : floored;
  }
  const width = spec.stride * FIXED_DIFF_MICROS[spec.unit];
  const offset = micros - origin;
  return origin + offset - (((offset % width) + width) % width);
}

/** Truncation for date_trunc's unit names; decade/century/millennium start on years ending in 0/01/001. */
function truncate(unit: string, micros: number): number {
  switch (unit) {
    case 'nanosecond': case 'microsecond': return micros;
    case 'millisecond': return floorToUnit(micros, 1, 'T');
    case 'second': return floorToUnit(micros, 1, 's');
    case 'minute': return floorToUnit(micros, 1, 'm');
    case 'hour': return floorToUnit(micros, 1, 'h');
    case 'day': return floorToUnit(micros, 1, 'd');
    case 'week': return floorToUnit(micros, 1, 'w');
    case 'month': return floorToUnit(micros, 1, 'M');
    case 'quarter': return floorToUnit(micros, 3, 'M');
    case 'year': return floorToUnit(micros, 1, 'y');
    case 'decade': return yearStart(Math.floor(yearOf(micros) / 10) * 10);
    case 'century': return yearStart(Math.floor((yearOf(micros) - 1) / 100) * 100 + 1);
    default: return yearStart(Math.floor((yearOf(micros) - 1) / 1000) * 1000 + 1);
  }
}

function yearStart(year: number): number {
  return daysFromCivil(year, 1, 1) * MICROS_PER_DAY;
}

/** extract(part FROM ts), PostgreSQL's parts as QuestDB computes them. */
function extractPart(part: string, micros: number): number {
  const year = yearOf(micros);
  switch (part) {
    case 'millennium': return Math.floor((year - 1) / 1000) + 1;
    case 'century': return Math.floor((year - 1) / 100) + 1;
    case 'decade': return Math.floor(year / 10);
    case 'year': return year;
    case 'isoyear': return isoWeekYearOf(micros);
    case 'quarter': return Math.floor((monthOf(micros) - 1) / 3) + 1;
    case 'month': return monthOf(micros);
    case 'week': return weekOfYear(micros);
    case 'doy': return dayOfYear(micros);
    case 'day': return dayOfMonth(micros);
    case 'dow': return dayOfWeek(micros) % 7;
    case 'isodow': return dayOfWeek(micros);
    case 'hour': return hourOf(micros);
    case 'minute': return minuteOf(micros);
    case 'second': return secondOf(micros);
    case 'milliseconds': return secondOf(micros) * 1000 + Math.floor(microsOfSecond(micros) / 1000);
    case 'microseconds': return secondOf(micros) * MICROS_PER_SECOND + microsOfSecond(micros);
    default: return Math.trunc(micros / MICROS_PER_SECOND);
  }
}

function timeZoneOf(name: string | null): TimeZone | undefined {
  return name === null ? undefined : resolveTimeZone(name);
}

export const dateRuntime = {
  /** `ts IN '<interval>'`: whether `ts` lies in one of the sorted, disjoint inclusive µs ranges (binary search). */
  inIntervals(los: Float64Array, his: Float64Array, ts: number): boolean {
    let lo = 0;
    let hi = los.length - 1;
    // A null timestamp (NaN) compares false everywhere, so it falls through to false.
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (his[mid] < ts) lo = mid + 1;
      else if (los[mid] > ts) hi = mid - 1;
      else return ts === ts;
    }
    return false;
  },
  dateAdd(unit: string | null, count: number, micros: number): number {
    const calendarUnit = unit === null ? undefined : addUnit(unit);
    if (calendarUnit === undefined || count !== count || micros !== micros) return NaN;
    // A count that moves past any representable instant (dateadd('M', 9223372036854775807, ts)) is null, not Infinity.
    const moved = addUnits(micros, Math.trunc(count), calendarUnit);
    return Number.isFinite(moved) ? moved : NaN;
  },
  dateDiff(unit: string | null, a: number, b: number): number {
    if (unit === null || a !== a || b !== b) return NaN;
    const lo = Math.min(a, b);
    const hi = Math.max(a, b);
    if (unit === 'M') return monthsBetween(lo, hi);
    if (unit === 'y') return Math.trunc(monthsBetween(lo, hi) / 12);
    const width = FIXED_DIFF_MICROS[unit];
    return width === undefined ? NaN : Math.floor((hi - lo) / width);
  },
  floorUnit: (spec: UnitSpec, micros: number): number => (micros !== micros ? NaN : floorToUnit(micros, spec.stride, spec.unit)),
  floorUnitFrom: (spec: UnitSpec, micros: number, origin: number): number =>
    micros !== micros ? NaN : floorFrom(spec, micros, origin !== origin ? 0 : origin),
  /** timestamp_floor(unit, ts, from, offset, tz): the bucket start of the local wall clock, in local time. */
  floorUnitLocal(spec: UnitSpec, micros: number, origin: number, offset: number, zone: TimeZone | undefined): number {
    if (micros !== micros) return NaN;
    const local = zone === undefined ? micros : micros + zone.offsetAt(micros);
    return floorFrom(spec, local, (origin !== origin ? 0 : origin) + offset);
  },
  ceilUnit(spec: UnitSpec, micros: number): number {
    if (micros !== micros) return NaN;
    const floor = floorToUnit(micros, spec.stride, spec.unit);
    return floor === micros ? micros : addUnits(floor, spec.stride, spec.unit);
  },
  truncate: (unit: string, micros: number): number => (micros !== micros ? NaN : truncate(unit, micros)),
  extractPart: (part: string, micros: number): number => (micros !== micros ? NaN : extractPart(part, micros)),
  yearOf: (micros: number): number => (micros !== micros ? NaN : yearOf(micros)),
  monthOf: (micros: number): number => (micros !== micros ? NaN : monthOf(micros)),
  dayOf: (micros: number): number => (micros !== micros ? NaN : dayOfMonth(micros)),
  hourOf: (micros: number): number => (micros !== micros ? NaN : hourOf(micros)),
  minuteOf: (micros: number): number => (micros !== micros ? NaN : minuteOf(micros)),
  secondOf: (micros: number): number => (micros !== micros ? NaN : secondOf(micros)),
  millisOf: (micros: number): number => (micros !== micros ? NaN : Math.floor(microsOfSecond(micros) / 1000)),
  microsOf: (micros: number): number => (micros !== micros ? NaN : microsOfSecond(micros) % 1000),
  dayOfWeekOf: (micros: number): number => (micros !== micros ? NaN : dayOfWeek(micros)),
  dayOfWeekSundayFirstOf: (micros: number): number => (micros !== micros ? NaN : (dayOfWeek(micros) % 7) + 1),
  dayOfYearOf: (micros: number): number => (micros !== micros ? NaN : dayOfYear(micros)),
  weekOfYearOf: (micros: number): number => (micros !== micros ? NaN : weekOfYear(micros)),
  daysInMonthOf: (micros: number): number => (micros !== micros ? NaN : daysInMonth(yearOf(micros), monthOf(micros))),
  isLeapYearOf: (micros: number): boolean => micros === micros && isLeapYear(yearOf(micros)),
  toTimezone: (zone: TimeZone, micros: number): number => (micros !== micros ? NaN : micros + zone.offsetAt(micros)),
  toTimezoneNamed(micros: number, name: string | null): number {
    const zone = timeZoneOf(name);
    return zone === undefined || micros !== micros ? NaN : micros + zone.offsetAt(micros);
  },
  toUtc: (zone: TimeZone, micros: number): number => (micros !== micros ? NaN : localToUtc(zone, micros)),
  toUtcNamed(micros: number, name: string | null): number {
    const zone = timeZoneOf(name);
    return zone === undefined || micros !== micros ? NaN : localToUtc(zone, micros);
  },
  formatPattern: (pattern: TimestampPattern, micros: number): string | null => (micros !== micros ? null : pattern.format(micros)),
  formatPatternText: (micros: number, pattern: string | null): string | null =>
    (micros !== micros || pattern === null ? null : formatWithPattern(micros, pattern)),
  parsePattern: (pattern: TimestampPattern, text: string | null): number => (text === null ? NaN : pattern.parse(text) ?? NaN),
  parsePatternText: (text: string | null, pattern: string | null): number =>
    (text === null || pattern === null ? NaN : parseWithPattern(text, pattern) ?? NaN),
  parseIsoOrNull: (text: string | null): number => (text === null ? NaN : parseTimestamp(text) ?? NaN),
  microsToMillis: (micros: number): number => (micros !== micros ? NaN : Math.floor(micros / 1000)),
  systemMillis: (): number => Date.now(),
};
