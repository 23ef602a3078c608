// The encoder thread's kept raw buffer: reused while segments come, of its bound's size once taken (a page
// costs only when touched; growing step by step touched each step's pages again), never above it, and released
// once no segment came for the idle time (a request meanwhile postpones the release). A manual clock and
// scheduler stand in for the thread's timers.
import test from 'ava';
import { RawScratch } from '../../../src/replication/raw-scratch.js';
import { manualClock } from '../../helpers/manual-clock.js';

const IDLE_MS = 10_000;
const BYTES_MAX = 1024;

/** A scratch on a clock the test moves; `advance` runs the callbacks that have come due. */
function manualScratch(): { scratch: RawScratch; advance: (ms: number) => void; pendingCount: () => number } {
  const clock = manualClock();
  const scratch = new RawScratch({ bytesMax: BYTES_MAX, idleMs: IDLE_MS, nowMs: clock.nowMs, schedule: clock.schedule });
  return { scratch, advance: clock.advance, pendingCount: clock.pendingCount };
}

test('the first request keeps a buffer of the bound, and later requests reuse it', (t) => {
  const { scratch } = manualScratch();
  const first = scratch.take(300);
  t.is(first.length, 300);
  t.is(scratch.keptBytes, BYTES_MAX);
  const second = scratch.take(100);
  const third = scratch.take(BYTES_MAX);
  t.is(second.length, 100);
  t.is(second.buffer, first.buffer);
  t.is(third.buffer, first.buffer);
});

test('a request past the bound gets a buffer of its own and the kept one stays as it was', (t) => {
  const { scratch } = manualScratch();
  const kept = scratch.take(500);
  const large = scratch.take(BYTES_MAX + 1);
  t.is(large.length, BYTES_MAX + 1);
  t.not(large.buffer, kept.buffer);
  t.is(scratch.keptBytes, BYTES_MAX);
  t.is(scratch.take(500).buffer, kept.buffer);
});

test('the kept buffer is released after the idle time without a request', (t) => {
  const { scratch, advance, pendingCount } = manualScratch();
  scratch.take(500);
  advance(IDLE_MS - 1);
  t.is(scratch.keptBytes, BYTES_MAX);
  advance(1);
  t.is(scratch.keptBytes, 0);
  t.is(pendingCount(), 0, 'nothing kept, no check pending');
});

test('a request during the idle time postpones the release to idle time after it', (t) => {
  const { scratch, advance, pendingCount } = manualScratch();
  scratch.take(500);
  advance(6_000);
  scratch.take(200);
  t.is(pendingCount(), 1, 'one check pending at a time');
  advance(4_000);
  t.is(scratch.keptBytes, BYTES_MAX, 'only 4 s since the last request');
  advance(5_999);
  t.is(scratch.keptBytes, BYTES_MAX);
  advance(1);
  t.is(scratch.keptBytes, 0);
});

test('after a release the next request allocates afresh and is kept again', (t) => {
  const { scratch, advance } = manualScratch();
  scratch.take(500);
  advance(IDLE_MS);
  t.is(scratch.take(100).length, 100);
  t.is(scratch.keptBytes, BYTES_MAX);
});
