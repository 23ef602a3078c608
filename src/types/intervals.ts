// Interval strings of `WHERE ts IN '<interval>'`, after QuestDB's IntervalUtils.parseInterval0:
// '<ts>' (a partial timestamp names its whole period, a full one with a zone or a bare µs number is one
// instant), '<ts>;<±n><unit>' (moves the upper bound), '<ts>;<±n><unit>;<±n><step unit>;<count>' (repeats).
// Result: inclusive µs ranges, sorted and merged (touching ranges join); undefined for any invalid text.
import { assert } from '../core/assert.js';
import { parseTimestamp, parseTimestampPeriod } from './timestamp-parse.js';
import type { TimestampPeriod } from './timestamp-parse.js';
import { MICROS_PER_DAY, MICROS_PER_HOUR, MICROS_PER_MINUTE, MICROS_PER_SECOND, addMonths, addYears } from './timestamp-calendar.js';

export type TimestampInterval = TimestampPeriod;

/** Most repetitions one interval string may ask for ('…;1d;<count>'); beyond it the string is rejected. */
export const intervalRepeatCountMax = 1_000_000;

const INT32_TEXT = /^-?\d{1,10}$/;
const INT64_TEXT = /^-?\d{1,19}$/;

/** QuestDB's Numbers.parseInt: optional '-', decimal digits, within int32. */
function parseInt32(text: string): number | undefined {
  if (!INT32_TEXT.test(text)) return undefined;
  const value = Number(text);
  return value >= -2147483648 && value <= 2147483647 ? value : undefined;
}

/**
 * `micros` moved by `count` units, as QuestDB's Micros.addPeriod for the upper-bound modifier:
 * U or u µs, T ms, s, m, h, d, w, M (months, day clamped), y, n (ns, truncated); undefined for other letters.
 */
function addPeriod(micros: number, unit: string, count: number): number | undefined {
  switch (unit) {
    case 'U': case 'u': return micros + count;
    case 'n': return micros + Math.trunc(count / 1000);
    case 'T': return micros + count * 1000;
    case 's': return micros + count * MICROS_PER_SECOND;
    case 'm': return micros + count * MICROS_PER_MINUTE;
    case 'h': return micros + count * MICROS_PER_HOUR;
    case 'd': return micros + count * MICROS_PER_DAY;
    case 'w': return micros + count * 7 * MICROS_PER_DAY;
    case 'M': return addMonths(micros, count);
    case 'y': return addYears(micros, count);
    default: return undefined;
  }
}

/** '<ts>' alone: the period it names, else the instant it is, else a bare integer of µs. */
function parseSingle(text: string): TimestampInterval | undefined {
  const period = parseTimestampPeriod(text);
  if (period !== undefined) return period;
  const instant = parseTimestamp(text);
  if (instant !== undefined) return { lo: instant, hi: instant };
  if (!INT64_TEXT.test(text)) return undefined;
  const micros = Number(text);
  return { lo: micros, hi: micros };
}

/** '<ts>;<±n><unit>': the period (or instant) with its upper bound moved; undefined if it ends before it starts. */
function parseRange(date: string, modifier: string): TimestampInterval | undefined {
  const count = parseInt32(modifier.slice(0, -1));
  if (count === undefined) return undefined;
  const unit = modifier.slice(-1);
  const period = parseTimestampPeriod(date);
  const instant = period === undefined ? parseTimestamp(date) : undefined;
  const lo = period?.lo ?? instant;
  const base = period?.hi ?? instant;
  if (lo === undefined || base === undefined) return undefined;
  const hi = addPeriod(base, unit, count);
  return hi === undefined || hi < lo ? undefined : { lo, hi };
}

/** Step units QuestDB accepts for repeats (IntervalUtils.apply): no weeks and nothing below a second. */
function stepMicros(unit: string): number | undefined {
  switch (unit) {
    case 's': return MICROS_PER_SECOND;
    case 'm': return MICROS_PER_MINUTE;
    case 'h': return MICROS_PER_HOUR;
    case 'd': return MICROS_PER_DAY;
    default: return undefined;
  }
}

/** `count` copies of `first`, each shifted by `step` units from the previous one; negative steps go back. */
function repeatInterval(first: TimestampInterval, step: number, unit: string, count: number): TimestampInterval[] {
  const fixed = stepMicros(unit);
  const shift = (micros: number, by: number): number =>
    fixed !== undefined ? micros + by * fixed : unit === 'M' ? addMonths(micros, by) : addYears(micros, by);
  let lo = first.lo;
  let hi = first.hi;
  let stride = step;
  if (step < 0) {
    // As QuestDB does: jump to the earliest copy, then walk forward.
    lo = shift(lo, step * (count - 1));
    hi = shift(hi, step * (count - 1));
    stride = -step;
  }
  const out: TimestampInterval[] = [{ lo, hi }];
  for (let index = 1; index < count; index++) {
    lo = shift(lo, stride);
    hi = shift(hi, stride);
    out.push({ lo, hi });
  }
  return out;
}

/** Sorts by start and joins ranges that overlap or touch (hi + 1 >= next lo). */
function mergeIntervals(intervals: TimestampInterval[]): TimestampInterval[] {
  intervals.sort((a, b) => a.lo - b.lo);
  const merged: TimestampInterval[] = [];
  for (const interval of intervals) {
    const last = merged[merged.length - 1];
    if (last !== undefined && interval.lo <= last.hi + 1) {
      merged[merged.length - 1] = { lo: last.lo, hi: Math.max(last.hi, interval.hi) };
    } else {
      merged.push(interval);
    }
  }
  return merged;
}

export function parseIntervalString(text: string): TimestampInterval[] | undefined {
  const parts = text.split(';');
  if (parts.length === 1) {
    const single = parseSingle(text);
    return single === undefined ? undefined : [single];
  }
  if (parts.length === 2) {
    const range = parseRange(parts[0], parts[1]);
    return range === undefined ? undefined : [range];
  }
  if (parts.length !== 4) return undefined;
  const [date, modifier, stepText, countText] = parts as [string, string, string, string];
  const first = parseRange(date, modifier);
  const step = parseInt32(stepText.slice(0, -1));
  const unit = stepText.slice(-1);
  const count = parseInt32(countText);
  if (first === undefined || step === undefined || count === undefined) return undefined;
  if (stepMicros(unit) === undefined && unit !== 'M' && unit !== 'y') return undefined;
  if (count > intervalRepeatCountMax) return undefined;
  const repeated = repeatInterval(first, step, unit, Math.max(count, 1));
  const merged = mergeIntervals(repeated);
  assert(merged.length >= 1 && merged.every((range) => range.lo <= range.hi), 'merged intervals are non-empty ranges');
  return merged;
}
