// Fast ISO-8601 timestamp parser over bytes, the import's hot path for TIMESTAMP and DATE columns.
// Accepts [-]YYYY-MM-DD, optionally followed by `T` or space, HH:mm[:ss[.f{1,9}]], and a zone
// (`Z`, `±HH`, `±HHmm`, `±HH:mm`, or none = UTC). Returns epoch microseconds, NaN when malformed.
// Nanosecond digits past the sixth are truncated, as QuestDB does for TIMESTAMP.
import { daysFromCivil, daysInMonth, MICROS_PER_DAY } from '../types/timestamp-calendar.js';

/** Fraction digits → multiplier to microseconds, for 1..6 digits. */
const FRACTION_SCALE = [0, 100_000, 10_000, 1_000, 100, 10, 1];

// One-entry cache of the last calendar date: consecutive rows of a time series share their day, and
// days_from_civil is the most expensive step. Module state, but the function stays pure in its results.
let cachedDateKey = -1;
let cachedDays = 0;

function twoDigits(buf: Uint8Array, i: number): number {
  const a = buf[i] - 0x30;
  const b = buf[i + 1] - 0x30;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}

/**
 * Epoch microseconds of an ISO timestamp in buf[s, e); NaN when malformed. The common full form
 * YYYY-MM-DD(T| )HH:mm:ss[.f][zone] is read at fixed offsets with one validity branch for all its digits
 * (a digit d is valid iff d | (9 - d) is not negative); other shapes take the general path.
 */
export function parseIsoTimestampBytes(buf: Uint8Array, s: number, e: number): number {
  if (e - s < 19) return parseIsoGeneral(buf, s, e);
  const y0 = buf[s] - 48, y1 = buf[s + 1] - 48, y2 = buf[s + 2] - 48, y3 = buf[s + 3] - 48;
  const m0 = buf[s + 5] - 48, m1 = buf[s + 6] - 48, d0 = buf[s + 8] - 48, d1 = buf[s + 9] - 48;
  const h0 = buf[s + 11] - 48, h1 = buf[s + 12] - 48, i0 = buf[s + 14] - 48, i1 = buf[s + 15] - 48;
  const s0 = buf[s + 17] - 48, s1 = buf[s + 18] - 48;
  const digits = y0 | (9 - y0) | y1 | (9 - y1) | y2 | (9 - y2) | y3 | (9 - y3) | m0 | (9 - m0) | m1 | (9 - m1)
    | d0 | (9 - d0) | d1 | (9 - d1) | h0 | (9 - h0) | h1 | (9 - h1) | i0 | (9 - i0) | i1 | (9 - i1)
    | s0 | (9 - s0) | s1 | (9 - s1);
  const separators = (buf[s + 4] ^ 0x2d) | (buf[s + 7] ^ 0x2d) | (buf[s + 13] ^ 0x3a) | (buf[s + 16] ^ 0x3a);
  const t = buf[s + 10];
  if (digits < 0 || separators !== 0 || (t !== 0x54 && t !== 0x20)) return parseIsoGeneral(buf, s, e);
  const year = y0 * 1000 + y1 * 100 + y2 * 10 + y3;
  const month = m0 * 10 + m1;
  const day = d0 * 10 + d1;
  const hour = h0 * 10 + h1;
  const minute = i0 * 10 + i1;
  const second = s0 * 10 + s1;
  if (hour > 23 || minute > 59 || second > 59) return NaN;
  const dateKey = (year * 100 + month) * 100 + day;
  let days: number;
  if (dateKey === cachedDateKey) {
    days = cachedDays;
  } else {
    if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return NaN;
    days = daysFromCivil(year, month, day);
    cachedDateKey = dateKey;
    cachedDays = days;
  }
  let i = s + 19;
  let micros = 0;
  if (e - i > 6 && buf[i] === 0x2e && isMicroFraction(buf, i + 1, e)) {
    // The common case, exactly six fraction digits, read at fixed offsets without a loop.
    micros = (buf[i + 1] - 48) * 100_000 + (buf[i + 2] - 48) * 10_000 + (buf[i + 3] - 48) * 1_000
      + (buf[i + 4] - 48) * 100 + (buf[i + 5] - 48) * 10 + (buf[i + 6] - 48);
    i += 7;
  } else if (i < e && buf[i] === 0x2e) {
    const fractionStart = ++i;
    let scale = 100_000;
    for (; i < e; i++) {
      const d = buf[i] - 48;
      if ((d | (9 - d)) < 0) break;
      micros += d * scale;
      scale = (scale / 10) | 0;
    }
    if (i === fractionStart || i - fractionStart > 9) return NaN;
  }
  const local = days * 86_400_000_000 + ((hour * 60 + minute) * 60 + second) * 1_000_000 + micros;
  if (i === e || (i + 1 === e && buf[i] === 0x5a)) return local;
  const offsetMinutes = parseZoneOffsetMinutes(buf, i, e);
  return offsetMinutes !== offsetMinutes ? NaN : local - offsetMinutes * 60_000_000;
}

/** buf[f, f + 6) are digits and no digit follows them before e. */
function isMicroFraction(buf: Uint8Array, f: number, e: number): boolean {
  const a = buf[f] - 48, b = buf[f + 1] - 48, c = buf[f + 2] - 48, d = buf[f + 3] - 48, g = buf[f + 4] - 48, h = buf[f + 5] - 48;
  if ((a | (9 - a) | b | (9 - b) | c | (9 - c) | d | (9 - d) | g | (9 - g) | h | (9 - h)) < 0) return false;
  if (f + 6 === e) return true;
  const next = buf[f + 6] - 48;
  return (next | (9 - next)) < 0;
}

/** Every accepted shape, field by field: date only, no seconds, negative years, … */
function parseIsoGeneral(buf: Uint8Array, s: number, e: number): number {
  let i = s;
  let yearSign = 1;
  if (i < e && buf[i] === 0x2d) {
    yearSign = -1;
    i++;
  }
  if (e - i < 10 || buf[i + 4] !== 0x2d || buf[i + 7] !== 0x2d) return NaN;
  const y1 = twoDigits(buf, i);
  const y2 = twoDigits(buf, i + 2);
  const month = twoDigits(buf, i + 5);
  const day = twoDigits(buf, i + 8);
  if (y1 < 0 || y2 < 0 || month < 1 || month > 12 || day < 1) return NaN;
  const year = yearSign * (y1 * 100 + y2);
  const dateKey = ((year + 10000) * 100 + month) * 100 + day;
  let days: number;
  if (dateKey === cachedDateKey) {
    days = cachedDays;
  } else {
    if (day > daysInMonth(year, month)) return NaN;
    days = daysFromCivil(year, month, day);
    cachedDateKey = dateKey;
    cachedDays = days;
  }
  i += 10;
  if (i === e) return days * MICROS_PER_DAY;
  const sep = buf[i];
  if (sep !== 0x54 && sep !== 0x20) return NaN;
  return parseIsoTime(buf, i + 1, e, days * MICROS_PER_DAY);
}

/** HH:mm[:ss[.f]][zone] after the date; dayMicros is the start of the day. */
function parseIsoTime(buf: Uint8Array, start: number, e: number, dayMicros: number): number {
  let i = start;
  if (e - i < 5 || buf[i + 2] !== 0x3a) return NaN;
  const hour = twoDigits(buf, i);
  const minute = twoDigits(buf, i + 3);
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59) return NaN;
  i += 5;
  let second = 0;
  let micros = 0;
  if (i < e && buf[i] === 0x3a) {
    if (e - i < 3) return NaN;
    second = twoDigits(buf, i + 1);
    if (second < 0 || second > 59) return NaN;
    i += 3;
    if (i < e && buf[i] === 0x2e) {
      i++;
      const fractionStart = i;
      while (i < e) {
        const d = buf[i] - 0x30;
        if (d < 0 || d > 9) break;
        if (i - fractionStart < 6) micros = micros * 10 + d;
        i++;
      }
      const digits = i - fractionStart;
      if (digits === 0 || digits > 9) return NaN;
      micros *= FRACTION_SCALE[digits < 6 ? digits : 6];
    }
  }
  const local = dayMicros + ((hour * 60 + minute) * 60 + second) * 1_000_000 + micros;
  if (i === e) return local;
  const offsetMinutes = parseZoneOffsetMinutes(buf, i, e);
  return offsetMinutes !== offsetMinutes ? NaN : local - offsetMinutes * 60_000_000;
}

/**
 * A zone designator filling buf[s, e): `Z`, `UTC`, `GMT`, `±HH`, `±HHmm`, `±HH:mm`, optionally after UTC/GMT.
 * Returns the offset east of UTC in minutes, NaN when malformed.
 */
function parseZoneOffsetMinutes(buf: Uint8Array, s: number, e: number): number {
  let i = s;
  if (e - i === 1 && (buf[i] === 0x5a || buf[i] === 0x7a)) return 0;
  if (e - i >= 3 && isUtcWord(buf, i)) {
    i += 3;
    if (i === e) return 0;
  }
  const sign = buf[i];
  if (sign !== 0x2b && sign !== 0x2d) return NaN;
  i++;
  const hours = e - i >= 2 ? twoDigits(buf, i) : -1;
  if (hours < 0 || hours > 23) return NaN;
  i += 2;
  let minutes = 0;
  if (i < e) {
    if (buf[i] === 0x3a) i++;
    minutes = e - i === 2 ? twoDigits(buf, i) : -1;
    if (minutes < 0 || minutes > 59) return NaN;
  }
  const total = hours * 60 + minutes;
  return sign === 0x2d ? -total : total;
}

function isUtcWord(buf: Uint8Array, i: number): boolean {
  const a = buf[i] | 0x20;
  const b = buf[i + 1] | 0x20;
  const c = buf[i + 2] | 0x20;
  return (a === 0x75 && b === 0x74 && c === 0x63) || (a === 0x67 && b === 0x6d && c === 0x74);
}
