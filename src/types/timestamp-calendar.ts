// Proleptic Gregorian calendar arithmetic on µs-since-epoch numbers (UTC), shared by timestamp parsing,
// formatting, partitioning and the SQL date functions. Year 0 exists (astronomical numbering, 1 BC), as in
// QuestDB. All functions are pure and allocation-free; values are exact while |micros| < 2^53.
import { assert } from '../core/assert.js';

export const MICROS_PER_MILLI = 1_000;
export const MICROS_PER_SECOND = 1_000_000;
export const MICROS_PER_MINUTE = 60_000_000;
export const MICROS_PER_HOUR = 3_600_000_000;
export const MICROS_PER_DAY = 86_400_000_000;
export const MICROS_PER_WEEK = 604_800_000_000;

/** A calendar date; reused as an out-parameter so hot paths do not allocate. */
export interface CivilDate {
  year: number;
  month: number;
  day: number;
}

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Days in `month` (1-12) of `year`. */
export function daysInMonth(year: number, month: number): number {
  assert(month >= 1 && month <= 12, 'month is 1-12; parsers validate user input before calling');
  return month === 2 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month - 1];
}

/** a mod b with the sign of b (b > 0): the remainder floor division leaves. */
export function floorMod(a: number, b: number): number {
  const r = a % b;
  return r < 0 ? r + b : r;
}

/** Days since 1970-01-01 of a civil date (month 1-12, day 1-31); Howard Hinnant's days_from_civil. */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146097 + dayOfEra - 719468;
}

/** The civil date of a day number (days since 1970-01-01), written into `out`. */
export function civilFromDays(days: number, out: CivilDate): CivilDate {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const dayOfEra = z - era * 146097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36524) - Math.floor(dayOfEra / 146096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shiftedMonth = Math.floor((5 * dayOfYear + 2) / 153);
  const month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9;
  out.year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  out.month = month;
  out.day = dayOfYear - Math.floor((153 * shiftedMonth + 2) / 5) + 1;
  return out;
}

/** Day number of a timestamp: floor(micros / day), computed exactly. */
export function dayNumberOf(micros: number): number {
  return (micros - floorMod(micros, MICROS_PER_DAY)) / MICROS_PER_DAY;
}

/** µs since the epoch of a civil date and time; parts must already be in range. */
export function timestampFromParts(
  year: number, month: number, day: number, hour = 0, minute = 0, second = 0, micros = 0,
): number {
  return daysFromCivil(year, month, day) * MICROS_PER_DAY
    + hour * MICROS_PER_HOUR + minute * MICROS_PER_MINUTE + second * MICROS_PER_SECOND + micros;
}

const scratch: CivilDate = { year: 0, month: 0, day: 0 };

export function yearOf(micros: number): number {
  return civilFromDays(dayNumberOf(micros), scratch).year;
}

/** Month of year, 1-12. */
export function monthOf(micros: number): number {
  return civilFromDays(dayNumberOf(micros), scratch).month;
}

export function dayOfMonth(micros: number): number {
  return civilFromDays(dayNumberOf(micros), scratch).day;
}

export function hourOf(micros: number): number {
  return Math.floor(floorMod(micros, MICROS_PER_DAY) / MICROS_PER_HOUR);
}

export function minuteOf(micros: number): number {
  return Math.floor(floorMod(micros, MICROS_PER_HOUR) / MICROS_PER_MINUTE);
}

export function secondOf(micros: number): number {
  return Math.floor(floorMod(micros, MICROS_PER_MINUTE) / MICROS_PER_SECOND);
}

/** Microseconds within the second, 0-999999. */
export function microsOfSecond(micros: number): number {
  return floorMod(micros, MICROS_PER_SECOND);
}

/** ISO day of week of a day number: Monday = 1 … Sunday = 7 (1970-01-01 was a Thursday). */
export function dayOfWeekOfDays(days: number): number {
  return floorMod(days + 3, 7) + 1;
}

/** Monday = 1 … Sunday = 7. */
export function dayOfWeek(micros: number): number {
  return dayOfWeekOfDays(dayNumberOf(micros));
}

/** Day of year, 1-366. */
export function dayOfYear(micros: number): number {
  const days = dayNumberOf(micros);
  return days - daysFromCivil(civilFromDays(days, scratch).year, 1, 1) + 1;
}

/** Weeks (52 or 53) in an ISO week-numbering year: 53 when it starts on a Thursday, or a Wednesday in a leap year. */
export function isoWeeksInYear(year: number): number {
  const januaryFirst = dayOfWeekOfDays(daysFromCivil(year, 1, 1));
  return januaryFirst === 4 || (januaryFirst === 3 && isLeapYear(year)) ? 53 : 52;
}

/** Day number of the Monday that starts ISO week 1 of `year` (the week holding January 4th). */
export function isoYearStartDays(year: number): number {
  const januaryFourth = daysFromCivil(year, 1, 4);
  return januaryFourth - dayOfWeekOfDays(januaryFourth) + 1;
}

/** ISO week-numbering year (differs from the civil year around New Year). */
export function isoWeekYearOf(micros: number): number {
  const days = dayNumberOf(micros);
  const year = civilFromDays(days, scratch).year;
  if (days < isoYearStartDays(year)) return year - 1;
  return days >= isoYearStartDays(year + 1) ? year + 1 : year;
}

/** ISO 8601 week number, 1-53 (2021-01-01 is in week 53 of 2020). */
export function weekOfYear(micros: number): number {
  const days = dayNumberOf(micros);
  return Math.floor((days - isoYearStartDays(isoWeekYearOf(micros))) / 7) + 1;
}

/** Adds calendar months; the day of month is clamped to the target month (Jan 31 + 1 month = Feb 28/29). */
/** Beyond every year an int64 microsecond timestamp can hold (294,247 AD). */
const MAX_CALENDAR_YEAR = 300_000;

export function addMonths(micros: number, months: number): number {
  if (months === 0) return micros;
  const days = dayNumberOf(micros);
  const timeOfDay = micros - days * MICROS_PER_DAY;
  civilFromDays(days, scratch);
  const monthIndex = scratch.year * 12 + scratch.month - 1 + months;
  // Past 2^53 months the year and month cannot be told apart exactly (dateadd('M', -9223372036854775807, …)
  // found by the SQL fuzzer): such a date lies far outside the timestamp range, so it saturates like one.
  if (!(Math.abs(monthIndex) <= Number.MAX_SAFE_INTEGER)) return monthIndex !== monthIndex ? NaN : monthIndex > 0 ? Infinity : -Infinity;
  // floorMod is exact where monthIndex / 12 would round: month stays in 1..12.
  const monthOffset = floorMod(monthIndex, 12);
  const year = (monthIndex - monthOffset) / 12;
  const month = monthOffset + 1;
  const day = Math.min(scratch.day, daysInMonth(year, month));
  return daysFromCivil(year, month, day) * MICROS_PER_DAY + timeOfDay;
}

/**
 * Adds calendar years the way QuestDB's Micros.addYears does: same month, same day number, so Feb 29 plus
 * one year overflows into March 1st instead of clamping.
 */
export function addYears(micros: number, years: number): number {
  if (years === 0) return micros;
  const days = dayNumberOf(micros);
  const timeOfDay = micros - days * MICROS_PER_DAY;
  civilFromDays(days, scratch);
  const year = scratch.year + years;
  // int64 microseconds reach about ±292,000 years; past that the day arithmetic loses precision and the date is
  // outside the timestamp range anyway, so it saturates like addMonths does.
  if (!(Math.abs(year) <= MAX_CALENDAR_YEAR)) return year !== year ? NaN : year > 0 ? Infinity : -Infinity;
  return (daysFromCivil(year, scratch.month, 1) + scratch.day - 1) * MICROS_PER_DAY + timeOfDay;
}
