// Duration and size text forms: accepted spellings, units, and the malformed inputs that must return null.
import test from 'ava';
import { formatDurationMs, formatSizeBytes, parseDurationMs, parseSizeBytes } from '../../../src/config/duration-size.js';

test('durations: units and plain milliseconds', (t) => {
  t.is(parseDurationMs('500ms'), 500);
  t.is(parseDurationMs('60s'), 60_000);
  t.is(parseDurationMs('2m'), 120_000);
  t.is(parseDurationMs('1h'), 3_600_000);
  t.is(parseDurationMs('1d'), 86_400_000);
  t.is(parseDurationMs('250'), 250);
  t.is(parseDurationMs('0'), 0);
  t.is(parseDurationMs('10S'), 10_000, 'units are case-insensitive');
  t.is(parseDurationMs(' 5s '), 5000, 'surrounding whitespace is ignored');
});

test('durations: malformed text is null', (t) => {
  for (const text of ['', 's', '-5s', '1.5s', '5 s', '5sec', '5us', 'abc', '1e3', '99999999999999999d']) {
    t.is(parseDurationMs(text), null, text);
  }
});

test('sizes: 1024-based units and plain bytes', (t) => {
  t.is(parseSizeBytes('64k'), 65_536);
  t.is(parseSizeBytes('4m'), 4 * 1024 * 1024);
  t.is(parseSizeBytes('1g'), 1024 ** 3);
  t.is(parseSizeBytes('1t'), 1024 ** 4);
  t.is(parseSizeBytes('64KB'), 65_536, 'a trailing b and upper case are accepted');
  t.is(parseSizeBytes('123'), 123);
});

test('sizes: malformed text is null', (t) => {
  for (const text of ['', 'k', '-1k', '1.5m', '1 m', '1p', '1kk', '99999999999t']) {
    t.is(parseSizeBytes(text), null, text);
  }
});

test('format picks the largest exact unit and round-trips', (t) => {
  t.is(formatDurationMs(90_000), '90s');
  t.is(formatDurationMs(1500), '1500ms');
  t.is(formatDurationMs(600_000), '10m');
  t.is(formatDurationMs(0), '0');
  t.is(formatSizeBytes(65_536), '64k');
  t.is(formatSizeBytes(1000), '1000');
  for (const ms of [1, 999, 60_000, 3_600_000, 172_800_000]) t.is(parseDurationMs(formatDurationMs(ms)), ms);
  for (const bytes of [1, 1024, 1536, 4 * 1024 ** 3]) t.is(parseSizeBytes(formatSizeBytes(bytes)), bytes);
});
