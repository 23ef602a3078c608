// TIMESTAMP values past the 64-bit range (a DOUBLE of Infinity or 1e300 cast to TIMESTAMP) format as the
// saturated 64-bit value, as Java's (long) cast gives, instead of throwing (found by the SQL fuzzer:
// cast(cast(ceil(f) as timestamp) as string) answered 500).
import test from 'ava';
import { formatTimestamp } from '../../../src/types/timestamp.js';

test('out-of-range timestamps saturate at the 64-bit limits', (t) => {
  t.is(formatTimestamp(Infinity), '294247-01-10T04:00:54.775807Z');
  t.is(formatTimestamp(1e300), '294247-01-10T04:00:54.775807Z');
  t.is(formatTimestamp(-Infinity), '-290308-12-21T19:59:05.224193Z');
  t.is(formatTimestamp(0), '1970-01-01T00:00:00.000000Z');
});
