// The TCP commit tick: every connection's timer ends at the same multiple of the interval, never later than one
// interval away (the primary's gathering of a tick's units: test/unit/cluster/tick-gather.test.ts).
import test from 'ava';
import { msUntilCommitTick } from '../../../src/ilp/commit-tick.js';

test('the next tick is the next multiple of the interval on the wall clock, 1..interval ms away', (t) => {
  t.is(msUntilCommitTick(10_000, 1000), 1000, 'on a tick: the next one, not now');
  t.is(msUntilCommitTick(10_001, 1000), 999);
  t.is(msUntilCommitTick(10_999, 1000), 1);
  t.is(msUntilCommitTick(10_999.7, 1000), 1, 'fractional clocks floor to the ms');
  t.is(msUntilCommitTick(1_700_000_000_123, 250), 127);
  t.is(msUntilCommitTick(5, 1), 1, 'a 1 ms interval commits at the next ms');
  // Connections whose rows arrived at different moments of one interval end at the same instant.
  const ends = [20_010, 20_400, 20_999].map((now) => now + msUntilCommitTick(now, 1000));
  t.deepEqual(ends, [21_000, 21_000, 21_000]);
  t.throws(() => msUntilCommitTick(0, 0));
  t.throws(() => msUntilCommitTick(0, 2.5));
});
