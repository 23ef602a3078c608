// The size-classed buffer pool: takes are rounded up to powers of two, a given-back buffer is taken again by
// the next request of its class, the bound and the idle time hold, and buffers the pool did not hand out (an
// empty placeholder, a view of Node's shared Buffer slab) never enter it.
import test from 'ava';
import { ArrayBufferPool, sizeClassBytes } from '../../../src/core/array-buffer-pool.js';
import { manualClock } from '../../helpers/manual-clock.js';

const IDLE_MS = 10_000;

function manualPool(bytesMax: number): { pool: ArrayBufferPool; advance: (ms: number) => void } {
  const clock = manualClock();
  return { pool: new ArrayBufferPool({ bytesMax, idleMs: IDLE_MS, nowMs: clock.nowMs, schedule: clock.schedule }), advance: clock.advance };
}

test('takes are rounded up to a power of two of at least 4 KiB', (t) => {
  t.deepEqual([0, 1, 4096, 4097, 400_000].map(sizeClassBytes), [4096, 4096, 4096, 8192, 524_288]);
  const { pool } = manualPool(1 << 20);
  t.is(pool.take(5000).byteLength, 8192);
});

test('a buffer given back is the next take of its class, and only of its class', (t) => {
  const { pool } = manualPool(1 << 20);
  const first = pool.take(10_000);
  pool.give(first);
  t.is(pool.keptBytes, 16_384);
  t.false(pool.take(20_000) === first);
  t.true(pool.take(9000) === first);
  t.is(pool.keptBytes, 0);
});

test('the kept bytes stay within the bound', (t) => {
  const { pool } = manualPool(20_000);
  const buffers = [pool.take(8192), pool.take(8192), pool.take(8192)];
  for (const buffer of buffers) pool.give(buffer);
  t.is(pool.keptBytes, 16_384);
});

test('buffers the pool did not hand out are not kept', (t) => {
  const { pool } = manualPool(1 << 20);
  pool.give(new ArrayBuffer(0));
  pool.give(new ArrayBuffer(6000));
  pool.give(new SharedArrayBuffer(8192));
  t.is(pool.keptBytes, 0);
});

test('after the idle time without a take nothing is kept; a take meanwhile postpones it', (t) => {
  const { pool, advance } = manualPool(1 << 20);
  pool.give(pool.take(4096));
  advance(IDLE_MS - 1);
  pool.give(pool.take(4096));
  advance(IDLE_MS - 1);
  t.is(pool.keptBytes, 4096);
  advance(1);
  t.is(pool.keptBytes, 0);
});
