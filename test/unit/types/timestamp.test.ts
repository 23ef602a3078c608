// Timestamp text forms, calendar units, partitions and date patterns, with QuestDB's behaviour as the oracle.
import test from 'ava';
import {
  addUnits, compileTimestampPattern, dayOfMonth, dayOfWeek, dayOfYear, daysInMonth, floorToUnit, formatDate,
  formatTimestamp, formatWithPattern, hourOf, isLeapYear, isTimeUnit, minuteOf, monthOf, parsePartitionName,
  parseTimestamp, parseTimestampPeriod, parseWithPattern, partitionCeilExclusive, partitionFloor, partitionName,
  secondOf, unitMicros, weekOfYear, yearOf,
} from '../../../src/types/timestamp.js';
import type { PartitionUnit } from '../../../src/types/timestamp.js';

/** µs of an ISO text the tests trust (full form with Z): built with Date for the millisecond part. */
function micros(iso: string, extraMicros = 0): number {
  const millis = Date.parse(iso);
  if (Number.isNaN(millis)) throw new TypeError(`test input is not ISO: ${iso}`);
  return millis * 1000 + extraMicros;
}

/** parseTimestamp rendered back as text, or 'invalid'. */
function parsedText(text: string): string {
  const value = parseTimestamp(text);
  return value === undefined ? 'invalid' : formatTimestamp(value);
}

/** parseTimestampPeriod rendered as "lo .. hi", or 'invalid'. */
function periodText(text: string): string {
  const period = parseTimestampPeriod(text);
  return period === undefined ? 'invalid' : `${formatTimestamp(period.lo)} .. ${formatTimestamp(period.hi)}`;
}

test('parseTimestamp: partial forms name the period start', (t) => {
  t.is(parsedText('2024'), '2024-01-01T00:00:00.000000Z');
  t.is(parsedText('2024-03'), '2024-03-01T00:00:00.000000Z');
  t.is(parsedText('2024-02-29'), '2024-02-29T00:00:00.000000Z');
  t.is(parsedText('2024-01-01T10'), '2024-01-01T10:00:00.000000Z');
  t.is(parsedText('2024-01-01 10:20'), '2024-01-01T10:20:00.000000Z');
  t.is(parsedText('2024-01-01T10:20:30'), '2024-01-01T10:20:30.000000Z');
});

test('parseTimestamp: fractions of 1 to 9 digits, truncated to µs', (t) => {
  t.is(parsedText('2024-01-01T10:20:30.1'), '2024-01-01T10:20:30.100000Z');
  t.is(parsedText('2024-01-01T10:20:30.123456'), '2024-01-01T10:20:30.123456Z');
  t.is(parsedText('2024-01-01T10:20:30.123456789'), '2024-01-01T10:20:30.123456Z');
  t.is(parsedText('2024-01-01T10:20:30.1234567891'), 'invalid');
});

test('parseTimestamp: zone suffixes are converted to UTC', (t) => {
  t.is(parsedText('2026-01-12T12:35:26.123456+01:30'), '2026-01-12T11:05:26.123456Z');
  t.is(parsedText('2026-01-12T12:35:26+0130'), '2026-01-12T11:05:26.000000Z');
  t.is(parsedText('2026-01-12T12:35:26-05'), '2026-01-12T17:35:26.000000Z');
  t.is(parsedText('2026-01-12T12:35:26Z'), '2026-01-12T12:35:26.000000Z');
  t.is(parsedText('2026-01-12T12:35:26.5Z'), '2026-01-12T12:35:26.500000Z');
});

test('parseTimestamp: invalid text and out-of-range fields', (t) => {
  for (const text of ['', 'abc', 'abcd', '202', '2024-1', '2024-13', '2024-00', '2023-02-29', '2024-04-31',
    '2024-01-01T24', '2024-01-01T10:60', '2024-01-01T10:20:60', '2024-01-01X10', '2024-01-01T10:20Z',
    '2024-01-01T10:20:30+1', '2024-01-01T10:20:30+24:00', '2024-01-01T10:20:30Zx', '2024-01-01T10:20:30 ']) {
    t.is(parseTimestamp(text), undefined, text);
  }
});

test('parseTimestamp: pre-1970 and leap days', (t) => {
  t.is(parseTimestamp('1969-12-31T23:59:59.999999'), -1);
  t.is(parseTimestamp('1900-03-01'), micros('1900-03-01T00:00:00Z'));
  t.is(parsedText('2000-02-29'), '2000-02-29T00:00:00.000000Z');
  t.is(parseTimestamp('1900-02-29'), undefined);
});

test('parseTimestampPeriod: the whole named period, inclusive', (t) => {
  t.is(periodText('2024'), '2024-01-01T00:00:00.000000Z .. 2024-12-31T23:59:59.999999Z');
  t.is(periodText('2024-02'), '2024-02-01T00:00:00.000000Z .. 2024-02-29T23:59:59.999999Z');
  t.is(periodText('2023-02'), '2023-02-01T00:00:00.000000Z .. 2023-02-28T23:59:59.999999Z');
  t.is(periodText('2024-01-01'), '2024-01-01T00:00:00.000000Z .. 2024-01-01T23:59:59.999999Z');
  t.is(periodText('2024-01-01T10'), '2024-01-01T10:00:00.000000Z .. 2024-01-01T10:59:59.999999Z');
  t.is(periodText('2024-01-01T10:20'), '2024-01-01T10:20:00.000000Z .. 2024-01-01T10:20:59.999999Z');
  t.is(periodText('2024-01-01T10:20:30'), '2024-01-01T10:20:30.000000Z .. 2024-01-01T10:20:30.999999Z');
  t.is(periodText('2024-01-01T10:20:30.1'), '2024-01-01T10:20:30.100000Z .. 2024-01-01T10:20:30.199999Z');
  t.is(periodText('2024-01-01T10:20:30.123456'), '2024-01-01T10:20:30.123456Z .. 2024-01-01T10:20:30.123456Z');
  t.is(periodText('2024-01-01T10:20:30.123456789'), '2024-01-01T10:20:30.123456Z .. 2024-01-01T10:20:30.123456Z');
});

test('parseTimestampPeriod: interval syntax only (T separator, no zone)', (t) => {
  for (const text of ['2024-01-01 10', '2024-01-01T10:20:30Z', '2024-01-01T10:20:30.1234567890', '2024-13', 'x']) {
    t.is(parseTimestampPeriod(text), undefined, text);
  }
});

test('formatTimestamp: six fraction digits, floor division before 1970, years outside 0000-9999', (t) => {
  t.is(formatTimestamp(0), '1970-01-01T00:00:00.000000Z');
  t.is(formatTimestamp(6_000_000_001), '1970-01-01T01:40:00.000001Z');
  t.is(formatTimestamp(-1), '1969-12-31T23:59:59.999999Z');
  t.is(formatTimestamp(-1_000_000), '1969-12-31T23:59:59.000000Z');
  t.is(formatTimestamp(micros('1900-03-01T12:34:56.789Z', 12)), '1900-03-01T12:34:56.789012Z');
  t.is(formatTimestamp(micros('2024-02-29T23:59:59.999Z', 999)), '2024-02-29T23:59:59.999999Z');
  t.is(formatTimestamp(253_402_300_800_000_000), '10000-01-01T00:00:00.000000Z');
  // QuestDB pads the year by magnitude and prints year 0 (1 BC) as 1.
  t.is(formatTimestamp(-62_167_219_200_000_000), '0001-01-01T00:00:00.000000Z');
  t.is(formatTimestamp(micros('0999-12-31T00:00:00Z')), '0999-12-31T00:00:00.000000Z');
  // Beyond 2^53 µs (after 2255) doubles hold only even µs, but the text stays well-formed.
  t.is(formatTimestamp(2 ** 60), '38504-08-17T21:30:06.846976Z');
  t.is(formatTimestamp(-(2 ** 60)), '-34565-05-17T02:29:53.153024Z');
});

test('formatDate: milliseconds with three fraction digits', (t) => {
  t.is(formatDate(1_104_796_800_000), '2005-01-04T00:00:00.000Z');
  t.is(formatDate(-1), '1969-12-31T23:59:59.999Z');
  t.is(formatDate(1_700_000_000_123), '2023-11-14T22:13:20.123Z');
});

test('date parts, UTC, Monday = 1, ISO weeks', (t) => {
  const value = micros('2024-02-29T13:45:07.250Z');
  t.deepEqual([yearOf(value), monthOf(value), dayOfMonth(value), hourOf(value), minuteOf(value), secondOf(value)],
    [2024, 2, 29, 13, 45, 7]);
  t.is(dayOfWeek(value), 4);
  t.is(dayOfYear(value), 60);
  t.is(dayOfWeek(micros('2024-01-01T00:00:00Z')), 1);
  t.is(dayOfWeek(micros('2024-01-07T23:00:00Z')), 7);
  t.is(weekOfYear(micros('2021-01-01T00:00:00Z')), 53);
  t.is(weekOfYear(micros('2024-12-30T00:00:00Z')), 1);
  t.is(yearOf(-1), 1969);
  t.is(dayOfMonth(-1), 31);
  t.is(hourOf(-1), 23);
});

test('leap years and days in month', (t) => {
  t.true(isLeapYear(2024));
  t.true(isLeapYear(2000));
  t.false(isLeapYear(1900));
  t.false(isLeapYear(2023));
  t.is(daysInMonth(2024, 2), 29);
  t.is(daysInMonth(2100, 2), 28);
  t.is(daysInMonth(2023, 4), 30);
  t.is(daysInMonth(2023, 12), 31);
});

test('unit sizes and unit letters are case-sensitive', (t) => {
  t.is(unitMicros('U'), 1);
  t.is(unitMicros('T'), 1000);
  t.is(unitMicros('m'), 60_000_000);
  t.is(unitMicros('w'), 604_800_000_000);
  t.is(unitMicros('M'), undefined);
  t.is(unitMicros('y'), undefined);
  t.true(isTimeUnit('M'));
  t.false(isTimeUnit('H'));
  t.false(isTimeUnit('Y'));
  t.false(isTimeUnit('mm'));
});

test('floorToUnit: buckets counted from the epoch, weeks from Monday', (t) => {
  const value = micros('2024-01-31T10:17:23.456Z');
  t.is(formatTimestamp(floorToUnit(value, 1, 'd')), '2024-01-31T00:00:00.000000Z');
  t.is(formatTimestamp(floorToUnit(value, 12, 'h')), '2024-01-31T00:00:00.000000Z');
  t.is(formatTimestamp(floorToUnit(value, 15, 'm')), '2024-01-31T10:15:00.000000Z');
  t.is(formatTimestamp(floorToUnit(value, 100, 'T')), '2024-01-31T10:17:23.400000Z');
  t.is(formatTimestamp(floorToUnit(value, 1, 'w')), '2024-01-29T00:00:00.000000Z');
  t.is(formatTimestamp(floorToUnit(value, 1, 'M')), '2024-01-01T00:00:00.000000Z');
  t.is(formatTimestamp(floorToUnit(value, 5, 'M')), '2023-10-01T00:00:00.000000Z');
  t.is(formatTimestamp(floorToUnit(value, 1, 'y')), '2024-01-01T00:00:00.000000Z');
  t.is(formatTimestamp(floorToUnit(value, 3, 'y')), '2024-01-01T00:00:00.000000Z');
  t.is(formatTimestamp(floorToUnit(value, 5, 'y')), '2020-01-01T00:00:00.000000Z');
  t.is(formatTimestamp(floorToUnit(-1, 1, 'd')), '1969-12-31T00:00:00.000000Z');
  t.is(formatTimestamp(floorToUnit(-1, 1, 'w')), '1969-12-29T00:00:00.000000Z');
  t.is(formatTimestamp(floorToUnit(micros('1969-05-20T00:00:00Z'), 1, 'M')), '1969-05-01T00:00:00.000000Z');
});

test('addUnits: fixed units, month clamping, QuestDB year arithmetic', (t) => {
  const endOfJanuary = micros('2024-01-31T10:00:00Z');
  t.is(formatTimestamp(addUnits(endOfJanuary, 1, 'M')), '2024-02-29T10:00:00.000000Z');
  t.is(formatTimestamp(addUnits(micros('2023-01-31T10:00:00Z'), 1, 'M')), '2023-02-28T10:00:00.000000Z');
  t.is(formatTimestamp(addUnits(endOfJanuary, 13, 'M')), '2025-02-28T10:00:00.000000Z');
  t.is(formatTimestamp(addUnits(endOfJanuary, -2, 'M')), '2023-11-30T10:00:00.000000Z');
  t.is(formatTimestamp(addUnits(endOfJanuary, 1, 'y')), '2025-01-31T10:00:00.000000Z');
  // Micros.addYears keeps the day number: Feb 29 plus a year runs into March 1st.
  t.is(formatTimestamp(addUnits(micros('2024-02-29T00:00:00Z'), 1, 'y')), '2025-03-01T00:00:00.000000Z');
  t.is(formatTimestamp(addUnits(endOfJanuary, -3, 'h')), '2024-01-31T07:00:00.000000Z');
  t.is(formatTimestamp(addUnits(endOfJanuary, 2, 'w')), '2024-02-14T10:00:00.000000Z');
  t.is(addUnits(0, 5, 'U'), 5);
});

/** Name, start and exclusive end of the partition holding `iso`. */
function partitionOf(iso: string, unit: PartitionUnit): [string, string, string] {
  const value = micros(iso);
  return [partitionName(value, unit), formatTimestamp(partitionFloor(value, unit)),
    formatTimestamp(partitionCeilExclusive(value, unit))];
}

test('partitions: names, floors and exclusive ends per unit', (t) => {
  t.deepEqual(partitionOf('2024-01-01T10:30:00Z', 'HOUR'),
    ['2024-01-01T10', '2024-01-01T10:00:00.000000Z', '2024-01-01T11:00:00.000000Z']);
  t.deepEqual(partitionOf('2024-02-29T10:30:00Z', 'DAY'),
    ['2024-02-29', '2024-02-29T00:00:00.000000Z', '2024-03-01T00:00:00.000000Z']);
  t.deepEqual(partitionOf('2024-02-10T00:00:00Z', 'MONTH'),
    ['2024-02', '2024-02-01T00:00:00.000000Z', '2024-03-01T00:00:00.000000Z']);
  t.deepEqual(partitionOf('2024-07-04T00:00:00Z', 'YEAR'),
    ['2024', '2024-01-01T00:00:00.000000Z', '2025-01-01T00:00:00.000000Z']);
  t.deepEqual(partitionOf('1969-12-31T23:59:59Z', 'DAY'),
    ['1969-12-31', '1969-12-31T00:00:00.000000Z', '1970-01-01T00:00:00.000000Z']);
  t.is(partitionName(123, 'NONE'), 'default');
  t.is(partitionFloor(123, 'NONE'), -Infinity);
  t.is(partitionCeilExclusive(123, 'NONE'), Infinity);
});

test('partitions: ISO weeks across year ends', (t) => {
  t.deepEqual(partitionOf('2021-01-01T12:00:00Z', 'WEEK'),
    ['2020-W53', '2020-12-28T00:00:00.000000Z', '2021-01-04T00:00:00.000000Z']);
  t.deepEqual(partitionOf('2024-12-31T00:00:00Z', 'WEEK'),
    ['2025-W01', '2024-12-30T00:00:00.000000Z', '2025-01-06T00:00:00.000000Z']);
  t.deepEqual(partitionOf('2024-01-01T00:00:00Z', 'WEEK'),
    ['2024-W01', '2024-01-01T00:00:00.000000Z', '2024-01-08T00:00:00.000000Z']);
});

test('parsePartitionName: round trip and rejection', (t) => {
  for (const unit of ['HOUR', 'DAY', 'WEEK', 'MONTH', 'YEAR'] as const) {
    for (const iso of ['2021-01-01T12:34:56Z', '2024-02-29T23:00:00Z', '1969-07-20T20:17:00Z']) {
      const value = micros(iso);
      t.is(parsePartitionName(partitionName(value, unit), unit), partitionFloor(value, unit), `${unit} ${iso}`);
    }
  }
  t.is(parsePartitionName('default', 'NONE'), -Infinity);
  for (const [name, unit] of [['2024-13', 'MONTH'], ['2023-02-29', 'DAY'], ['2024-W54', 'WEEK'], ['2021-W53', 'WEEK'],
    ['2024-01-01T24', 'HOUR'], ['2024-01-01', 'MONTH'], ['default', 'DAY'], ['2024', 'NONE']] as const) {
    t.is(parsePartitionName(name, unit), undefined, `${unit} ${name}`);
  }
});

test('patterns: formatting with letters, names, literals and quotes', (t) => {
  const value = micros('2023-11-14T22:13:20.123Z', 456);
  t.is(formatWithPattern(value, 'yyyy-MM-dd HH:mm:ss.SSSUUU'), '2023-11-14 22:13:20.123456');
  t.is(formatWithPattern(value, "EE, d MMMM yyyy 'at' hh:mm a"), 'Tuesday, 14 November 2023 at 10:13 PM');
  t.is(formatWithPattern(value, 'E MMM dd yy'), 'Tue Nov 14 23');
  t.is(formatWithPattern(value, 'yyyy-MM-ddTHH:mm:ss.U+Z'), '2023-11-14T22:13:20.123456Z');
  t.is(formatWithPattern(value, 'D u ww YYYY k K'), '318 3 46 2023 22 10');
  t.is(formatWithPattern(value, "'it''s' H'h'"), "it's 22h");
  t.is(formatWithPattern(value, "''yy''"), "'23'");
  t.is(formatWithPattern(micros('2021-01-01T00:00:00Z'), 'YYYY-ww yyyy'), '2020-53 2021');
  t.is(formatWithPattern(micros('2024-01-01T00:05:00Z'), 'h:mm a k'), '12:05 AM 24');
});

test('patterns: parsing, greedy one-letter fields, 12-hour clock, zones', (t) => {
  const parse = (text: string, pattern: string): string => {
    const value = parseWithPattern(text, pattern);
    return value === undefined ? 'invalid' : formatTimestamp(value);
  };
  t.is(parse('2023-11-14 22:13:20.123456', 'yyyy-MM-dd HH:mm:ss.SSSUUU'), '2023-11-14T22:13:20.123456Z');
  t.is(parse('14/11/2023 10:13 PM', 'dd/MM/yyyy hh:mm a'), '2023-11-14T22:13:00.000000Z');
  t.is(parse('14/11/2023 12:13 am', 'dd/MM/yyyy hh:mm a'), '2023-11-14T00:13:00.000000Z');
  t.is(parse('5/3/2024', 'd/M/y'), '2024-03-05T00:00:00.000000Z');
  t.is(parse('2023-11-14T22:13:20.5Z', 'yyyy-MM-ddTHH:mm:ss.Sz'), '2023-11-14T22:13:20.500000Z');
  t.is(parse('2023-11-14T22:13:20.123456+01:00', 'yyyy-MM-ddTHH:mm:ss.U+Z'), '2023-11-14T21:13:20.123456Z');
  t.is(parse('Nov 14, 2023', 'MMM d, yyyy'), '2023-11-14T00:00:00.000000Z');
  t.is(parse('November 14 2023', 'MMMM d yyyy'), '2023-11-14T00:00:00.000000Z');
  t.is(parse('Tuesday 2023-11-14', 'EE yyyy-MM-dd'), '2023-11-14T00:00:00.000000Z');
  t.is(parse('2023-11-14 24:00', 'yyyy-MM-dd HH:mm'), '2023-11-14T00:00:00.000000Z');
});

test('patterns: parsing rejects mismatches, bad ranges and leftover text', (t) => {
  for (const [text, pattern] of [['2023-02-30', 'yyyy-MM-dd'], ['2023-11-14x', 'yyyy-MM-dd'], ['2023/11/14', 'yyyy-MM-dd'],
    ['2023-13-01', 'yyyy-MM-dd'], ['2023-11-14 10:61', 'yyyy-MM-dd HH:mm'], ['13:00 PM', 'hh:mm a'], ['', 'yyyy'],
    ['2023-1-14', 'yyyy-MM-dd'], ['Foo 14', 'MMM dd']]) {
    t.is(parseWithPattern(text as string, pattern as string), undefined, `${text} with ${pattern}`);
  }
});

test('patterns: a compiled pattern formats and parses repeatedly and round-trips', (t) => {
  const pattern = compileTimestampPattern('yyyy-MM-ddTHH:mm:ss.SSSUUUZ');
  for (const value of [0, -1, 1_700_000_000_123_456, micros('1900-02-28T23:59:59Z', 999_999)]) {
    const text = pattern.format(value);
    t.is(pattern.parse(text), value, text);
    t.is(text, formatTimestamp(value));
  }
});
