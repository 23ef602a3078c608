// The parsing half of date patterns: the op vocabulary, the token shape the compiler produces, and a
// matcher that walks tokens over the input once. Fields start at 1970-01-01T00:00:00 and are range-checked at
// the end as QuestDB's MicrosFormatUtils.compute does; any mismatch or leftover text gives undefined.
import {
  MICROS_PER_DAY, MICROS_PER_HOUR, MICROS_PER_MINUTE, MICROS_PER_SECOND, daysFromCivil, daysInMonth,
  isoWeeksInYear, isoYearStartDays,
} from './timestamp-calendar.js';

/** The pattern operations QuestDB knows; longer spellings of one letter come first so they match first. */
export const PATTERN_OPS = [
  'U+', 'N+', 'yyyy', 'yyy', 'yy', 'y', 'YYYY', 'MMMM', 'MMM', 'MM', 'M', 'dd', 'd', 'EE', 'E', 'u', 'D', 'ww', 'w',
  'a', 'HH', 'H', 'kk', 'k', 'KK', 'K', 'hh', 'h', 'mm', 'm', 'ss', 's', 'SSS', 'S', 'UUU', 'U', 'NNN', 'N', 'G',
  'zzz', 'zz', 'z', 'Z', 'xxx', 'xx', 'x',
] as const;
export type PatternOp = (typeof PATTERN_OPS)[number];

/** One compiled pattern element: an op (greedy when it may read any number of digits) or literal text. */
export interface PatternToken {
  readonly op: PatternOp | undefined;
  readonly literal: string;
  greedy: boolean;
}

export const SHORT_MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
export const LONG_MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September',
  'October', 'November', 'December'];
export const SHORT_DAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
export const LONG_DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const ERAS = ['BC', 'AD'];
const AM_PM = ['AM', 'PM'];

/** Two-digit years (yy, or y read as two digits) land in the century QuestDB picks: 2000-2099 until 2080. */
const TWO_DIGIT_YEAR_BASE = centuryForTwoDigitYears(new Date().getUTCFullYear());

function centuryForTwoDigitYears(currentYear: number): number {
  // MicrosFormatUtils.updateReferenceYear: the century of the current year, or the next one within 20 years of it.
  const offset = currentYear % 100;
  return offset + 20 > 100 ? currentYear - offset + 100 : currentYear - offset;
}

const HOUR_24 = 0;
const HOUR_AM = 1;
const HOUR_PM = 2;

/** Everything one parse call has read so far; reset at the start of each call. */
const state = {
  text: '', position: 0, digitCount: 0, year: 1970, month: 1, day: 1, hour: 0, minute: 0, second: 0, millis: 0,
  micros: 0, era: 1, hourType: HOUR_24, offset: 0, week: -1,
};
type ParseState = typeof state;

/** Reads `min`..`max` ASCII digits at the current position; -1 when fewer than `min` are there. */
function readDigits(s: ParseState, min: number, max: number): number {
  let value = 0;
  let count = 0;
  while (count < max && s.position + count < s.text.length) {
    const digit = s.text.charCodeAt(s.position + count) - 48;
    if (digit < 0 || digit > 9) break;
    value = value * 10 + digit;
    count++;
  }
  if (count < min) return -1;
  s.position += count;
  s.digitCount = count;
  return value;
}

/** A one-letter op reads one digit, or any number when greedy; longer ops read exactly `width` digits. */
function readNumber(s: ParseState, width: number, greedy: boolean): number {
  return greedy ? readDigits(s, 1, 9) : readDigits(s, width, width);
}

/** A fraction of `width` digits scaled to that width (".5" as S → 500 ms); -1 when no digit. */
function readScaled(s: ParseState, width: number): number {
  let value = readDigits(s, 1, width);
  if (value < 0) return -1;
  for (let count = s.digitCount; count < width; count++) value *= 10;
  return value;
}

/** Case-insensitive match of one of `words` (longest first is the caller's order); its index or -1. */
function readWord(s: ParseState, words: readonly string[]): number {
  for (let index = 0; index < words.length; index++) {
    const word = words[index];
    const candidate = s.text.slice(s.position, s.position + word.length);
    if (candidate.toLowerCase() === word.toLowerCase()) {
      s.position += word.length;
      return index;
    }
  }
  return -1;
}

function readSignedYear(s: ParseState): number {
  const negative = s.text[s.position] === '-';
  if (negative) s.position++;
  const year = readDigits(s, 4, 4);
  return year < 0 ? Number.NaN : negative ? -year : year;
}

/** A zone at the current position: Z, UTC or GMT (each optionally followed by an offset), or ±HH[[:]mm]. */
function readZone(s: ParseState): boolean {
  const named = readWord(s, ['UTC', 'GMT', 'Z']) >= 0;
  const sign = s.text[s.position] === '+' ? 1 : s.text[s.position] === '-' ? -1 : 0;
  s.offset = 0;
  if (sign === 0) return named;
  s.position++;
  const hours = readDigits(s, 2, 2);
  if (hours < 0 || hours > 23) return false;
  const colon = s.text[s.position] === ':';
  if (colon) s.position++;
  const minutes = readDigits(s, 2, 2);
  if (minutes > 59 || (colon && minutes < 0)) return false;
  s.offset = sign * (hours * MICROS_PER_HOUR + Math.max(minutes, 0) * MICROS_PER_MINUTE);
  return true;
}

type OpParser = (s: ParseState, greedy: boolean) => boolean;

function setHour(s: ParseState, value: number, twelveHour: boolean): boolean {
  s.hour = value;
  if (twelveHour && s.hourType === HOUR_24) s.hourType = HOUR_AM;
  return value >= 0;
}

function setYear(s: ParseState, value: number, twoDigitsAdjust: boolean): boolean {
  s.year = twoDigitsAdjust && s.digitCount === 2 ? TWO_DIGIT_YEAR_BASE + value : value;
  return value >= 0;
}

function readMonthName(s: ParseState): number {
  const long = readWord(s, LONG_MONTHS);
  return long >= 0 ? long : readWord(s, SHORT_MONTHS);
}

function ignore(value: number): boolean {
  return value >= 0;
}

const PARSERS: Readonly<Record<PatternOp, OpParser>> = {
  G: (s) => (s.era = readWord(s, ERAS)) >= 0,
  y: (s, g) => setYear(s, readNumber(s, 1, g), g),
  yy: (s) => setYear(s, readDigits(s, 2, 2), true),
  yyy: (s) => setYear(s, readDigits(s, 3, 3), false),
  yyyy: (s) => !Number.isNaN((s.year = readSignedYear(s))),
  YYYY: (s) => !Number.isNaN((s.year = readSignedYear(s))),
  M: (s, g) => (s.month = readNumber(s, 1, g)) >= 0,
  MM: (s) => (s.month = readDigits(s, 2, 2)) >= 0,
  MMM: (s) => (s.month = readWord(s, SHORT_MONTHS) + 1) > 0,
  MMMM: (s) => (s.month = readMonthName(s) + 1) > 0,
  d: (s, g) => (s.day = readNumber(s, 1, g)) >= 0,
  dd: (s) => (s.day = readDigits(s, 2, 2)) >= 0,
  E: (s) => readWord(s, LONG_DAYS) >= 0 || readWord(s, SHORT_DAYS) >= 0,
  EE: (s) => readWord(s, LONG_DAYS) >= 0 || readWord(s, SHORT_DAYS) >= 0,
  u: (s) => ignore(readDigits(s, 1, 1)),
  D: (s) => ignore(readDigits(s, 1, 3)),
  w: (s) => ignore(readDigits(s, 1, 2)),
  ww: (s) => (s.week = readDigits(s, 2, 2)) >= 0,
  a: (s) => (s.hourType = readWord(s, AM_PM) + HOUR_AM) >= HOUR_AM,
  H: (s, g) => setHour(s, readNumber(s, 1, g), false),
  HH: (s) => setHour(s, readDigits(s, 2, 2), false),
  k: (s, g) => setHour(s, readNumber(s, 1, g), false),
  kk: (s) => setHour(s, readDigits(s, 2, 2), false),
  K: (s, g) => setHour(s, readNumber(s, 1, g), true),
  KK: (s) => setHour(s, readDigits(s, 2, 2), true),
  h: (s, g) => setHour(s, readNumber(s, 1, g), true),
  hh: (s) => setHour(s, readDigits(s, 2, 2), true),
  m: (s, g) => (s.minute = readNumber(s, 1, g)) >= 0,
  mm: (s) => (s.minute = readDigits(s, 2, 2)) >= 0,
  s: (s, g) => (s.second = readNumber(s, 1, g)) >= 0,
  ss: (s) => (s.second = readDigits(s, 2, 2)) >= 0,
  S: (s, g) => (s.millis = g ? readScaled(s, 3) : readDigits(s, 1, 1)) >= 0,
  SSS: (s) => (s.millis = readDigits(s, 3, 3)) >= 0,
  U: (s, g) => (s.micros = g ? readScaled(s, 3) : readDigits(s, 1, 1)) >= 0,
  UUU: (s) => (s.micros = readDigits(s, 3, 3)) >= 0,
  'U+': (s) => (s.micros = readScaled(s, 6)) >= 0,
  N: (s, g) => ignore(readNumber(s, 1, g)),
  NNN: (s) => ignore(readDigits(s, 3, 3)),
  'N+': (s) => (s.micros = Math.floor(readScaled(s, 9) / 1000)) >= 0,
  z: readZone, zz: readZone, zzz: readZone, Z: readZone, x: readZone, xx: readZone, xxx: readZone,
};

/** Matches `text` against compiled tokens; µs since the epoch (UTC) or undefined. */
export function parsePatternText(tokens: readonly PatternToken[], text: string): number | undefined {
  const s = state;
  s.text = text;
  s.position = 0;
  s.year = 1970;
  s.month = 1;
  s.day = 1;
  s.hour = s.minute = s.second = s.millis = s.micros = s.offset = 0;
  s.era = 1;
  s.hourType = HOUR_24;
  s.week = -1;
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index];
    if (token.op === undefined) {
      if (!text.startsWith(token.literal, s.position)) return undefined;
      s.position += token.literal.length;
    } else if (!PARSERS[token.op](s, token.greedy)) {
      return undefined;
    }
  }
  return s.position === text.length ? computeParsed(s) : undefined;
}

/** Range checks and the final µs value, after QuestDB's MicrosFormatUtils.compute. */
function computeParsed(s: ParseState): number | undefined {
  const year = s.era === 0 ? 1 - s.year : s.year;
  let hour = s.hour;
  if (s.hourType === HOUR_24) {
    if (hour > 24) return undefined;
    hour %= 24;
  } else {
    if (hour > 12) return undefined;
    hour = (hour % 12) + (s.hourType === HOUR_PM ? 12 : 0);
  }
  if (s.month < 1 || s.month > 12 || s.day < 1 || s.day > daysInMonth(year, s.month)) return undefined;
  if (s.minute > 59 || s.second > 59) return undefined;
  let days = daysFromCivil(year, s.month, s.day);
  if (s.week !== -1) {
    if (s.week < 1 || s.week > isoWeeksInYear(year)) return undefined;
    days = isoYearStartDays(year) + (s.week - 1) * 7;
  }
  return days * MICROS_PER_DAY + hour * MICROS_PER_HOUR + s.minute * MICROS_PER_MINUTE
    + s.second * MICROS_PER_SECOND + s.millis * 1000 + s.micros - s.offset;
}
