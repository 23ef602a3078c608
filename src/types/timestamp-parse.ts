// QuestDB's ISO-like timestamp literals: `yyyy[-MM[-dd[(T| )HH[:mm[:ss[.f…][Z|±HH[[:]mm]]]]]]]` as one instant
// (MicrosTimestampDriver.parseFloor) and `yyyy[-MM[-dd[THH[:mm[:ss[.f…]]]]]]` as the whole period it names
// (MicrosTimestampDriver.parseInterval). Both return undefined for anything else; neither throws nor allocates
// beyond its result. Field ranges are checked (month 1-12, day within the month, hour < 24, …).
import { assert } from '../core/assert.js';
import {
  MICROS_PER_DAY, MICROS_PER_HOUR, MICROS_PER_MINUTE, MICROS_PER_SECOND, addMonths, daysFromCivil, daysInMonth,
} from './timestamp-calendar.js';

/** An inclusive range of µs. */
export interface TimestampPeriod {
  readonly lo: number;
  readonly hi: number;
}

/** Parsed year, month, day, hour, minute, second; defaults name the start of the period. */
const fields = new Int32Array(6);
/** How many fields after the year the last parseFields call read (0-5). */
let fieldCount = 0;
const FIELD_SEPARATORS = '--T::';
const FIELD_MIN = [1, 1, 0, 0, 0];
const FIELD_MAX = [12, 31, 23, 59, 59];

/** Two ASCII digits at `index` as a number, or -1. */
function twoDigits(text: string, index: number): number {
  const tens = text.charCodeAt(index) - 48;
  const ones = text.charCodeAt(index + 1) - 48;
  return tens >= 0 && tens <= 9 && ones >= 0 && ones <= 9 ? tens * 10 + ones : -1;
}

/**
 * Reads the year and then as many `<separator><two digits>` fields as follow, like QuestDB's checkLen3 chain:
 * after each field either the text ends, or at least three characters remain and the next field starts (one
 * or two stray characters are an error). Returns the index after the last field, or -1.
 */
function parseFields(text: string, allowSpace: boolean): number {
  const length = text.length;
  if (length < 4) return -1;
  const high = twoDigits(text, 0);
  const low = twoDigits(text, 2);
  if (high < 0 || low < 0) return -1;
  fields[0] = high * 100 + low;
  fields.fill(0, 3);
  fields[1] = 1;
  fields[2] = 1;
  let position = 4;
  for (fieldCount = 0; fieldCount < 5 && position < length; fieldCount++) {
    if (length - position < 3) return -1;
    const separator = text[position];
    const expected = FIELD_SEPARATORS[fieldCount];
    if (separator !== expected && !(allowSpace && expected === 'T' && separator === ' ')) return -1;
    const value = twoDigits(text, position + 1);
    const max = fieldCount === 1 ? daysInMonth(fields[0], fields[1]) : FIELD_MAX[fieldCount];
    if (value < FIELD_MIN[fieldCount] || value > max) return -1;
    fields[fieldCount + 1] = value;
    position += 3;
  }
  return position;
}

function fieldsStartMicros(): number {
  return daysFromCivil(fields[0], fields[1], fields[2]) * MICROS_PER_DAY
    + fields[3] * MICROS_PER_HOUR + fields[4] * MICROS_PER_MINUTE
    + fields[5] * MICROS_PER_SECOND;
}

/** One instant; a partial text is the start of the period it names ('2024-03' = 2024-03-01T00:00:00Z). */
export function parseTimestamp(text: string): number | undefined {
  const end = parseFields(text, true);
  if (end < 0) return undefined;
  const start = fieldsStartMicros();
  if (end === text.length) return start;
  assert(fieldCount === 5, 'parseFields stops early only at the end of the text');
  let position = end;
  let fraction = 0;
  if (text.charCodeAt(position) === 46) {
    // Up to six digits are µs; three more (nanoseconds) are read and dropped; a shorter fraction is scaled.
    position++;
    let digits = 0;
    for (; digits < 9 && position < text.length; digits++, position++) {
      const digit = text.charCodeAt(position) - 48;
      if (digit < 0 || digit > 9) break;
      if (digits < 6) fraction = fraction * 10 + digit;
    }
    for (let scale = digits; scale < 6; scale++) fraction *= 10;
  }
  const offset = parseZoneOffset(text, position);
  return offset === undefined ? undefined : start + fraction - offset;
}

/** The zone suffix from `position` to the end: nothing, 'Z', ±HH, ±HHmm or ±HH:mm, as µs east of UTC. */
function parseZoneOffset(text: string, position: number): number | undefined {
  const remaining = text.length - position;
  if (remaining === 0) return 0;
  if (remaining === 1) return text[position] === 'Z' ? 0 : undefined;
  const sign = text[position] === '+' ? 1 : text[position] === '-' ? -1 : 0;
  const hours = twoDigits(text, position + 1);
  if (remaining < 3 || sign === 0 || hours < 0 || hours > 23) return undefined;
  if (remaining === 3) return sign * hours * MICROS_PER_HOUR;
  const minutesAt = remaining === 6 && text[position + 3] === ':' ? position + 4 : position + 3;
  const minutes = twoDigits(text, minutesAt);
  if (minutesAt + 2 !== text.length || minutes < 0 || minutes > 59) return undefined;
  return sign * (hours * MICROS_PER_HOUR + minutes * MICROS_PER_MINUTE);
}

/**
 * The whole period a partial timestamp names, inclusive: '2024' → the year, '2024-01-01T10:20' → the minute,
 * '…:30' → the second, '…:30.1' → the 100 ms of that digit, six or more fraction digits → one µs.
 * 'T' only between date and time, and no zone suffix, as in QuestDB's interval parser.
 */
export function parseTimestampPeriod(text: string): TimestampPeriod | undefined {
  const end = parseFields(text, false);
  if (end < 0) return undefined;
  const lo = fieldsStartMicros();
  if (end === text.length) return { lo, hi: periodEnd(lo) - 1 };
  if (fieldCount < 5 || text.charCodeAt(end) !== 46 || text.length - end - 1 > 9) return undefined;
  let fraction = 0;
  let digits = 0;
  for (let position = end + 1; position < text.length; position++, digits++) {
    const digit = text.charCodeAt(position) - 48;
    if (digit < 0 || digit > 9) return undefined;
    if (digits < 6) fraction = fraction * 10 + digit;
  }
  let width = 1;
  for (; digits < 6; digits++) width *= 10;
  return { lo: lo + fraction * width, hi: lo + fraction * width + width - 1 };
}

/** Exclusive end of the period that starts at `lo` and spans the last parsed field. */
function periodEnd(lo: number): number {
  switch (fieldCount) {
    case 0: return daysFromCivil(fields[0] + 1, 1, 1) * MICROS_PER_DAY;
    case 1: return addMonths(lo, 1);
    case 2: return lo + MICROS_PER_DAY;
    case 3: return lo + MICROS_PER_HOUR;
    case 4: return lo + MICROS_PER_MINUTE;
    default: return lo + MICROS_PER_SECOND;
  }
}
