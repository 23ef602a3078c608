// TIMESTAMP values and month arithmetic past the 64-bit range (a DOUBLE of Infinity or 1e300 cast to TIMESTAMP) format as the
// saturated 64-bit value, as Java's (long) cast gives, instead of throwing (found by the SQL fuzzer:
// cast(cast(ceil(f) as timestamp) as string) answered 500).
import test from 'ava';
import { formatTimestamp } from '../../../src/types/timestamp.js';
import { addMonths } from '../../../src/types/timestamp-calendar.js';
import { formatWithPattern } from '../../../src/types/timestamp-pattern.js';

test('out-of-range timestamps saturate at the 64-bit limits', (t) => {
  t.is(formatTimestamp(Infinity), '294247-01-10T04:00:54.775807Z');
  t.is(formatTimestamp(1e300), '294247-01-10T04:00:54.775807Z');
  t.is(formatTimestamp(-Infinity), '-290308-12-21T19:59:05.224193Z');
  t.is(formatTimestamp(0), '1970-01-01T00:00:00.000000Z');
});

test('month arithmetic past 2^53 months saturates instead of failing an assertion (found by the SQL fuzzer)', (t) => {
  t.is(addMonths(0, -9223372036854775807), -Infinity);
  t.is(addMonths(0, 9223372036854775807), Infinity);
  t.true(Number.isNaN(addMonths(0, NaN)));
  // Near the exact limit the month still comes out in 1..12: floorMod, not a rounded division.
  t.notThrows(() => addMonths(0, 2 ** 52 - 1));
  t.notThrows(() => addMonths(0, -(2 ** 52) + 1));
  t.is(formatTimestamp(addMonths(Date.UTC(2024, 0, 31) * 1000, 1)), '2024-02-29T00:00:00.000000Z');
  t.is(formatTimestamp(addMonths(Date.UTC(2024, 2, 31) * 1000, -13)), '2023-02-28T00:00:00.000000Z');
});

test('pattern formatting of a saturated timestamp gives the 64-bit limit, not NaN fields', (t) => {
  t.is(formatWithPattern(-Infinity, 'yyyy-MM-dd'), formatWithPattern(-9223372036854775807, 'yyyy-MM-dd'));
  t.is(formatWithPattern(Infinity, 'yyyy'), formatWithPattern(9223372036854775807, 'yyyy'));
  t.notRegex(formatWithPattern(-Infinity, 'yyyy-MM-dd'), /NaN/);
});
