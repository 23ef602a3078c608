// Cancellation flags shared with the parallel threads: a taken flag reads 0 even when its slot was set by an
// earlier query, slots are reused instead of new buffers made, and a flag cannot be given back twice.
import test from 'ava';
import { CancelFlags } from '../../../../src/sql/parallel/cancel-flags.js';

test('a flag is zero when taken, and a released slot is reused from the same buffer', (t) => {
  const flags = new CancelFlags();
  const first = flags.acquire();
  Atomics.store(new Int32Array(first.buffer), first.index, 1);
  flags.release(first);
  const again = flags.acquire();
  t.is(again.buffer, first.buffer);
  t.is(again.index, first.index);
  t.is(Atomics.load(new Int32Array(again.buffer), again.index), 0);
});

test('flags in use at once have distinct slots, and a full buffer is followed by another', (t) => {
  const flags = new CancelFlags();
  const taken = Array.from({ length: 300 }, () => flags.acquire());
  const slots = new Set(taken.map((flag) => `${taken.findIndex((other) => other.buffer === flag.buffer)}:${flag.index}`));
  t.is(slots.size, 300);
  t.is(new Set(taken.map((flag) => flag.buffer)).size, 2);
});

test('giving a flag back twice is a bug', (t) => {
  const flags = new CancelFlags();
  const flag = flags.acquire();
  flags.release(flag);
  t.throws(() => flags.release(flag), { message: /released once/ });
});
