// Java/QuestDB-style date patterns for to_str, to_timestamp and import schemas, compiled once into a
// formatter and a parser (letters as in QuestDB's MicrosFormatCompiler: y yy yyyy YYYY M MM MMM MMMM d dd E EE
// u D w ww a H HH k kk K KK h hh m mm s ss S SSS U UUU U+ N NNN N+ G z Z x; text in '…' and any other
// character are literals). Formatting is UTC and prints 'Z' for zone letters; parsing returns undefined on
// any mismatch, out-of-range field or leftover text, and accepts zone offsets (Z, UTC, GMT, ±HH[[:]mm]).
import { assert } from '../core/assert.js';
import {
  MICROS_PER_DAY, MICROS_PER_HOUR, MICROS_PER_MINUTE, MICROS_PER_SECOND, civilFromDays, dayNumberOf,
  dayOfWeekOfDays, daysFromCivil, isoWeekYearOf, weekOfYear,
} from './timestamp-calendar.js';
import type { CivilDate } from './timestamp-calendar.js';
import {
  LONG_DAYS, LONG_MONTHS, PATTERN_OPS, SHORT_DAYS, SHORT_MONTHS, parsePatternText,
} from './timestamp-pattern-parse.js';
import type { PatternOp, PatternToken } from './timestamp-pattern-parse.js';

/** The largest 64-bit timestamp as a double (Long.MAX_VALUE rounds up to 2^63). */
const INT64_LIMIT = 9223372036854775807;

export interface TimestampPattern {
  format(micros: number): string;
  parse(text: string): number | undefined;
}

/** The fields of one timestamp, filled once per format call and read by every piece. */
interface FormatFields extends CivilDate {
  micros: number;
  days: number;
  hour: number;
  minute: number;
  second: number;
  microsOfSecond: number;
}

type FormatPiece = (fields: FormatFields) => string;

/**
 * A year as QuestDB's appendYear…  family prints it: zero-padded to `width` by magnitude, then the signed
 * value, with 0 printed as 1 (so yyyy gives "0001" for year 0 and "000-5" for year -5).
 */
export function formatYearPadded(year: number, width: number): string {
  const printed = year === 0 ? '1' : String(year);
  const digits = String(year < 0 ? -year : year).length;
  return digits >= width ? printed : '0'.repeat(width - digits) + printed;
}

/** QuestDB's append0 / append00 / append00000: zero-padded by magnitude to `width`. */
function padded(value: number, width: number): string {
  const text = String(value);
  return text.length >= width ? text : '0'.repeat(width - text.length) + text;
}

const FORMATTERS: Readonly<Record<PatternOp, FormatPiece>> = {
  G: (f) => (f.year < 0 ? 'BC' : 'AD'),
  y: (f) => formatYearPadded(f.year, 1),
  yy: (f) => formatYearPadded(f.year % 100, 2),
  yyy: (f) => formatYearPadded(f.year % 1000, 3),
  yyyy: (f) => formatYearPadded(f.year, 4),
  YYYY: (f) => formatYearPadded(isoWeekYearOf(f.micros), 4),
  M: (f) => String(f.month),
  MM: (f) => padded(f.month, 2),
  MMM: (f) => SHORT_MONTHS[f.month - 1],
  MMMM: (f) => LONG_MONTHS[f.month - 1],
  d: (f) => String(f.day),
  dd: (f) => padded(f.day, 2),
  E: (f) => SHORT_DAYS[dayOfWeekOfDays(f.days) - 1],
  EE: (f) => LONG_DAYS[dayOfWeekOfDays(f.days) - 1],
  // QuestDB numbers 'u' from Sunday = 1 (Micros.getDayOfWeekSundayFirst), unlike Java's Monday = 1.
  u: (f) => String((dayOfWeekOfDays(f.days) % 7) + 1),
  D: (f) => String(f.days - daysFromCivil(f.year, 1, 1) + 1),
  // 'w' is QuestDB's plain week of year (1-based day of year / 7 + 1); 'ww' is the ISO week.
  w: (f) => String(Math.floor((f.days - daysFromCivil(f.year, 1, 1) + 1) / 7) + 1),
  ww: (f) => padded(weekOfYear(f.micros), 2),
  a: (f) => (f.hour < 12 ? 'AM' : 'PM'),
  H: (f) => String(f.hour),
  HH: (f) => padded(f.hour, 2),
  k: (f) => String(f.hour === 0 ? 24 : f.hour),
  kk: (f) => padded(f.hour === 0 ? 24 : f.hour, 2),
  K: (f) => String(f.hour % 12),
  KK: (f) => padded(f.hour % 12, 2),
  h: (f) => String(((f.hour + 11) % 12) + 1),
  hh: (f) => padded(((f.hour + 11) % 12) + 1, 2),
  m: (f) => String(f.minute),
  mm: (f) => padded(f.minute, 2),
  s: (f) => String(f.second),
  ss: (f) => padded(f.second, 2),
  S: (f) => String(Math.floor(f.microsOfSecond / 1000)),
  SSS: (f) => padded(Math.floor(f.microsOfSecond / 1000), 3),
  U: (f) => String(f.microsOfSecond % 1000),
  UUU: (f) => padded(f.microsOfSecond % 1000, 3),
  'U+': (f) => padded(f.microsOfSecond, 6),
  N: () => '0',
  NNN: () => '000',
  'N+': (f) => padded(f.microsOfSecond, 6), // QuestDB formats N+ like U+: a µs timestamp has no nanoseconds
  z: () => 'Z', zz: () => 'Z', zzz: () => 'Z', Z: () => 'Z', x: () => 'Z', xx: () => 'Z', xxx: () => 'Z',
};

const formatFields: FormatFields = {
  micros: 0, days: 0, year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0, microsOfSecond: 0,
};

function fillFormatFields(micros: number): FormatFields {
  const f = formatFields;
  f.micros = micros;
  f.days = dayNumberOf(micros);
  civilFromDays(f.days, f);
  const timeOfDay = micros - f.days * MICROS_PER_DAY;
  f.hour = Math.floor(timeOfDay / MICROS_PER_HOUR);
  f.minute = Math.floor((timeOfDay % MICROS_PER_HOUR) / MICROS_PER_MINUTE);
  f.second = Math.floor((timeOfDay % MICROS_PER_MINUTE) / MICROS_PER_SECOND);
  f.microsOfSecond = timeOfDay % MICROS_PER_SECOND;
  return f;
}

/** Compiles `pattern` once; the returned object formats and parses without re-reading the pattern. */
export function compileTimestampPattern(pattern: string): TimestampPattern {
  const tokens = tokenizePattern(pattern);
  const pieces: FormatPiece[] = tokens.map((token) => {
    if (token.op === undefined) {
      const literal = token.literal;
      return () => literal;
    }
    return FORMATTERS[token.op];
  });
  return {
    format(micros: number): string {
      // Past the 64-bit range (±Infinity from saturated month arithmetic) the value saturates as
      // formatTimestamp's does, instead of formatting NaN fields.
      const fields = fillFormatFields(micros > INT64_LIMIT ? INT64_LIMIT : micros < -INT64_LIMIT ? -INT64_LIMIT : micros);
      let out = '';
      for (let index = 0; index < pieces.length; index++) out += pieces[index](fields);
      return out;
    },
    parse(text: string): number | undefined {
      return parsePatternText(tokens, text);
    },
  };
}

/** Splits a pattern into ops and literals; a one-letter numeric op before a literal or at the end is greedy. */
export function tokenizePattern(pattern: string): PatternToken[] {
  const tokens: PatternToken[] = [];
  let literal = '';
  let index = 0;
  while (index < pattern.length) {
    if (pattern[index] === "'") {
      const quoted = readQuoted(pattern, index);
      literal += quoted.text;
      index = quoted.end;
      continue;
    }
    const op = PATTERN_OPS.find((candidate) => pattern.startsWith(candidate, index));
    if (op === undefined) {
      literal += pattern[index];
      index++;
      continue;
    }
    if (literal !== '') tokens.push(literalToken(tokens, literal));
    literal = '';
    if (op === 'a' || op === 'z') makeLastGreedy(tokens);
    tokens.push({ op, literal: '', greedy: false });
    index += op.length;
  }
  if (literal !== '') tokens.push(literalToken(tokens, literal));
  makeLastGreedy(tokens);
  assert(tokens.every((token) => token.op !== undefined || token.literal !== ''), 'literal tokens carry text');
  return tokens;
}

/** The quoted section starting at `start` ('' stands for one quote) and the index after it. */
function readQuoted(pattern: string, start: number): { text: string; end: number } {
  if (pattern[start + 1] === "'") return { text: "'", end: start + 2 };
  let text = '';
  let index = start + 1;
  while (index < pattern.length) {
    if (pattern[index] === "'") {
      if (pattern[index + 1] !== "'") return { text, end: index + 1 };
      index++;
    }
    text += pattern[index];
    index++;
  }
  return { text, end: index };
}

function literalToken(tokens: PatternToken[], literal: string): PatternToken {
  makeLastGreedy(tokens);
  return { op: undefined, literal, greedy: false };
}

const GREEDY_CAPABLE: ReadonlySet<PatternOp> = new Set<PatternOp>(['y', 'M', 'd', 'H', 'k', 'K', 'h', 'm', 's', 'S',
  'U', 'N']);

function makeLastGreedy(tokens: PatternToken[]): void {
  const last = tokens[tokens.length - 1];
  if (last !== undefined && last.op !== undefined && GREEDY_CAPABLE.has(last.op)) last.greedy = true;
}

/** Distinct patterns formatWithPattern / parseWithPattern keep compiled; the cache empties when full. */
const patternCacheEntriesMax = 64;
const compiledPatterns = new Map<string, TimestampPattern>();

function cachedPattern(pattern: string): TimestampPattern {
  let compiled = compiledPatterns.get(pattern);
  if (compiled === undefined) {
    if (compiledPatterns.size >= patternCacheEntriesMax) compiledPatterns.clear();
    compiled = compileTimestampPattern(pattern);
    compiledPatterns.set(pattern, compiled);
  }
  return compiled;
}

/** Formats `micros` with `pattern`; per-row callers should hold the compileTimestampPattern result instead. */
export function formatWithPattern(micros: number, pattern: string): string {
  return cachedPattern(pattern).format(micros);
}

/** Parses `text` with `pattern`; undefined when it does not match. */
export function parseWithPattern(text: string, pattern: string): number | undefined {
  return cachedPattern(pattern).parse(text);
}
