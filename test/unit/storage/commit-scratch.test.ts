// A table writer's commit scratch: a slot hands out the same memory again, slots do not share it, growth stays
// within the bound, and a commit past the bound gets arrays of its own.
import test from 'ava';
import { CommitScratch } from '../../../src/storage/commit-scratch.js';
import { commitScratchRowsMax } from '../../../src/core/limits.js';

test('a slot reuses its memory and slots do not share it', (t) => {
  const scratch = new CommitScratch();
  const first = scratch.int32(0, 100);
  const other = scratch.int32(1, 100);
  t.false(first.buffer === other.buffer);
  t.true(scratch.int32(0, 50).buffer === first.buffer);
  const keys = scratch.float64(100);
  t.is(keys.length, 100);
  t.true(scratch.float64(80).buffer === keys.buffer);
});

test('growth keeps at most the bound, and a larger commit gets arrays of its own', (t) => {
  const scratch = new CommitScratch();
  const kept = scratch.float64(commitScratchRowsMax);
  const large = scratch.float64(commitScratchRowsMax + 1);
  t.is(large.length, commitScratchRowsMax + 1);
  t.false(large.buffer === kept.buffer);
  t.true(scratch.float64(10).buffer === kept.buffer);
  scratch.int32(3, 10);
  const slot = scratch.int32(3, commitScratchRowsMax);
  t.is(slot.buffer.byteLength, commitScratchRowsMax * 4);
  t.false(scratch.int32(3, commitScratchRowsMax + 1).buffer === slot.buffer);
  t.true(scratch.int32(3, 10).buffer === slot.buffer);
});
