// Interval strings of `ts IN '…'` against QuestDB's IntervalUtils semantics.
import test from 'ava';
import { intervalRepeatCountMax, parseIntervalString } from '../../../src/types/intervals.js';
import { formatTimestamp } from '../../../src/types/timestamp.js';

/** The parsed ranges as "lo .. hi" texts, or 'invalid'. */
function ranges(text: string): string[] | 'invalid' {
  const parsed = parseIntervalString(text);
  if (parsed === undefined) return 'invalid';
  return parsed.map((range) => `${formatTimestamp(range.lo)} .. ${formatTimestamp(range.hi)}`);
}

test('a partial timestamp names its whole period', (t) => {
  t.deepEqual(ranges('2024'), ['2024-01-01T00:00:00.000000Z .. 2024-12-31T23:59:59.999999Z']);
  t.deepEqual(ranges('2024-02'), ['2024-02-01T00:00:00.000000Z .. 2024-02-29T23:59:59.999999Z']);
  t.deepEqual(ranges('2024-01-01'), ['2024-01-01T00:00:00.000000Z .. 2024-01-01T23:59:59.999999Z']);
  t.deepEqual(ranges('2024-01-01T10'), ['2024-01-01T10:00:00.000000Z .. 2024-01-01T10:59:59.999999Z']);
  t.deepEqual(ranges('2024-01-01T10:20'), ['2024-01-01T10:20:00.000000Z .. 2024-01-01T10:20:59.999999Z']);
  t.deepEqual(ranges('2024-01-01T10:20:30'), ['2024-01-01T10:20:30.000000Z .. 2024-01-01T10:20:30.999999Z']);
  t.deepEqual(ranges('2024-01-01T10:20:30.5'), ['2024-01-01T10:20:30.500000Z .. 2024-01-01T10:20:30.599999Z']);
});

test('a full timestamp with a zone, or a bare number of µs, is one instant', (t) => {
  t.deepEqual(ranges('2024-01-01T10:20:30+01:00'), ['2024-01-01T09:20:30.000000Z .. 2024-01-01T09:20:30.000000Z']);
  t.deepEqual(ranges('2024-01-01 10:20:30'), ['2024-01-01T10:20:30.000000Z .. 2024-01-01T10:20:30.000000Z']);
  // With a space instead of 'T' the period parser declines and the text is read as one instant.
  t.deepEqual(ranges('2024-01-01 10'), ['2024-01-01T10:00:00.000000Z .. 2024-01-01T10:00:00.000000Z']);
  t.deepEqual(ranges('1700000000000000'), ['2023-11-14T22:13:20.000000Z .. 2023-11-14T22:13:20.000000Z']);
});

test('a modifier moves the upper bound by a signed count of units', (t) => {
  t.deepEqual(ranges('2024-01-01;1h'), ['2024-01-01T00:00:00.000000Z .. 2024-01-02T00:59:59.999999Z']);
  t.deepEqual(ranges('2026-04;-3d'), ['2026-04-01T00:00:00.000000Z .. 2026-04-27T23:59:59.999999Z']);
  t.deepEqual(ranges('2024-01-31;1M'), ['2024-01-31T00:00:00.000000Z .. 2024-02-29T23:59:59.999999Z']);
  t.deepEqual(ranges('2024-01-01T10:00:00;30m'), ['2024-01-01T10:00:00.000000Z .. 2024-01-01T10:30:00.999999Z']);
  t.deepEqual(ranges('2024-01-01T10:00:00.000001;10U'), ['2024-01-01T10:00:00.000001Z .. 2024-01-01T10:00:00.000011Z']);
  t.deepEqual(ranges('2024-01-01;2w'), ['2024-01-01T00:00:00.000000Z .. 2024-01-15T23:59:59.999999Z']);
  t.deepEqual(ranges('2024;1y'), ['2024-01-01T00:00:00.000000Z .. 2025-12-31T23:59:59.999999Z']);
});

test('step and count repeat the interval; negative steps go backwards', (t) => {
  t.deepEqual(ranges('2024-01-01T10:00:00;30m;1d;3'), [
    '2024-01-01T10:00:00.000000Z .. 2024-01-01T10:30:00.999999Z',
    '2024-01-02T10:00:00.000000Z .. 2024-01-02T10:30:00.999999Z',
    '2024-01-03T10:00:00.000000Z .. 2024-01-03T10:30:00.999999Z',
  ]);
  t.deepEqual(ranges('2024-01-10T10:00:00;1h;-2d;2'), [
    '2024-01-08T10:00:00.000000Z .. 2024-01-08T11:00:00.999999Z',
    '2024-01-10T10:00:00.000000Z .. 2024-01-10T11:00:00.999999Z',
  ]);
  t.deepEqual(ranges('2024-01-31;0d;1M;3'), [
    '2024-01-31T00:00:00.000000Z .. 2024-01-31T23:59:59.999999Z',
    '2024-02-29T00:00:00.000000Z .. 2024-02-29T23:59:59.999999Z',
    '2024-03-29T00:00:00.000000Z .. 2024-03-29T23:59:59.999999Z',
  ]);
  t.deepEqual(ranges('2024-01-01;0d;1d;1'), ['2024-01-01T00:00:00.000000Z .. 2024-01-01T23:59:59.999999Z']);
});

test('overlapping and touching repeats are merged into sorted ranges', (t) => {
  t.deepEqual(ranges('2024-01-01;1d;1d;3'), ['2024-01-01T00:00:00.000000Z .. 2024-01-04T23:59:59.999999Z']);
  t.deepEqual(ranges('2024-01-01;0d;-1d;3'), ['2023-12-30T00:00:00.000000Z .. 2024-01-01T23:59:59.999999Z']);
});

test('invalid interval strings', (t) => {
  for (const text of ['', 'x', '2024-13', '2024-01-01;', '2024-01-01;h', '2024-01-01;1x', '2024-01-01;1H',
    '2024-01-01;1h;1d', '2024-01-01;1h;1d;x', '2024-01-01;1h;1w;2', '2024-01-01;1h;1T;2', '2024-01-01;-2d',
    '2024;;', '2024-01-01;1h;1d;2;3', `2024-01-01;1h;1d;${intervalRepeatCountMax + 1}`]) {
    t.is(parseIntervalString(text), undefined, text);
  }
});
