// TIMESTAMP_NS text in and out: nine fraction digits kept exactly where a double would round (values of today
// are ~1.7e18 ns), zones applied, periods widened to their last nanosecond, and µs floors for negative values.
import test from 'ava';
import {
  formatTimestampNanos, microsFloorOfNanos, nanosAt, parseTimestampNanos, parseTimestampPeriodNanos,
} from '../../../src/types/timestamp-ns.js';

test('parses up to nine fraction digits exactly, shorter fractions scaled, zones applied', (t) => {
  t.is(parseTimestampNanos('2024-01-01T23:59:59.999999999Z'), 1704153599999999999n);
  t.is(parseTimestampNanos('2024-01-01T23:59:59.999999998'), 1704153599999999998n);
  t.is(parseTimestampNanos('2024-01-01T00:00:00.1Z'), 1704067200100000000n);
  t.is(parseTimestampNanos('2024-01-01T00:00:00.0000001Z'), 1704067200000000100n);
  t.is(parseTimestampNanos('2024-01-01 01:00:00.000000001+01:00'), 1704067200000000001n);
  t.is(parseTimestampNanos('2024-01'), 1704067200000000000n);
  t.is(parseTimestampNanos('2024-13-01'), undefined);
  t.is(parseTimestampNanos('not a time'), undefined);
});

test('formats nine fraction digits, before 1970 too', (t) => {
  t.is(formatTimestampNanos(1704153599999999999n), '2024-01-01T23:59:59.999999999Z');
  t.is(formatTimestampNanos(1n), '1970-01-01T00:00:00.000000001Z');
  t.is(formatTimestampNanos(-1n), '1969-12-31T23:59:59.999999999Z');
  t.is(formatTimestampNanos(0n), '1970-01-01T00:00:00.000000000Z');
});

test('µs floors round toward minus infinity', (t) => {
  t.is(microsFloorOfNanos(1704153599999999999n), 1704153599999999);
  t.is(microsFloorOfNanos(-1n), -1);
  t.is(microsFloorOfNanos(-1000n), -1);
  t.is(microsFloorOfNanos(-1001n), -2);
});

test('periods cover their last nanosecond; a ns fraction names one nanosecond', (t) => {
  t.deepEqual(parseTimestampPeriodNanos('2024-01-01'), { lo: 1704067200000000000n, hi: 1704153599999999999n });
  t.deepEqual(parseTimestampPeriodNanos('2024-01-01T00:00:00.1234567'), { lo: 1704067200123456700n, hi: 1704067200123456799n });
  t.deepEqual(parseTimestampPeriodNanos('2024-01-01T00:00:00.123456789'), { lo: 1704067200123456789n, hi: 1704067200123456789n });
  t.is(parseTimestampPeriodNanos('2024-01-01Z'), undefined);
});

test('vector rows read exact values when present, numbers otherwise; null is undefined', (t) => {
  const exact = BigInt64Array.from([1704153599999999999n, -9223372036854775808n]);
  t.is(nanosAt(new Float64Array([0, 0]), exact, 0), 1704153599999999999n);
  t.is(nanosAt(new Float64Array([0, 0]), exact, 1), undefined);
  t.is(nanosAt(new Float64Array([5, NaN]), undefined, 0), 5n);
  t.is(nanosAt(new Float64Array([5, NaN]), undefined, 1), undefined);
});
