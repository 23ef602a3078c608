// The primary's staged read buffer: views of one turn are aligned and disjoint, the next turn reuses the same
// memory, growth keeps the views already taken, the bound holds, and the memory goes after the idle time. A
// manual clock and scheduler stand in for the engine's timers.
import test from 'ava';
import { StagedReadBuffer } from '../../../src/storage/staged-read-buffer.js';
import { manualClock } from '../../helpers/manual-clock.js';

const IDLE_MS = 10_000;
const BYTES_MAX = 4096;

function manualBuffer(): { reads: StagedReadBuffer; advance: (ms: number) => void } {
  const clock = manualClock();
  const reads = new StagedReadBuffer({ bytesMax: BYTES_MAX, idleMs: IDLE_MS, nowMs: clock.nowMs, schedule: clock.schedule });
  return { reads, advance: clock.advance };
}

/** The buffer after a turn that read `bytes`: it keeps that much. */
function sizedBuffer(bytes: number): ReturnType<typeof manualBuffer> {
  const sized = manualBuffer();
  sized.reads.startTurn();
  sized.reads.take(bytes);
  return sized;
}

test('views of one turn are 8-aligned and do not overlap; the next turn reuses the memory', (t) => {
  const { reads } = sizedBuffer(2000);
  reads.startTurn();
  const first = reads.take(1000);
  const second = reads.take(13);
  const third = reads.take(200);
  t.true(second.buffer === first.buffer && third.buffer === first.buffer);
  t.deepEqual([first.byteOffset, second.byteOffset, third.byteOffset], [0, 1000, 1016]);
  reads.startTurn();
  const again = reads.take(500);
  t.true(again.buffer === first.buffer);
  t.is(again.byteOffset, 0);
});

test('a turn that outgrows the kept buffer keeps its earlier views and the next such turn fits', (t) => {
  const { reads } = manualBuffer();
  reads.startTurn();
  const first = reads.take(1000);
  first.fill(7);
  const second = reads.take(1000);
  t.false(second.buffer === first.buffer);
  second.fill(9);
  t.true(first.every((byte) => byte === 7));
  reads.startTurn();
  const kept = reads.take(1000);
  t.true(reads.take(1000).buffer === kept.buffer);
  t.true(reads.keptBytes <= BYTES_MAX);
});

test('a read past the bound gets memory of its own and the kept buffer stays', (t) => {
  const { reads } = sizedBuffer(200);
  reads.startTurn();
  const kept = reads.take(100);
  const large = reads.take(BYTES_MAX + 1);
  t.is(large.length, BYTES_MAX + 1);
  t.false(large.buffer === kept.buffer);
  t.true(reads.take(96).buffer === kept.buffer);
  t.is(reads.keptBytes, 200);
});

test('growth stops at the bound', (t) => {
  const { reads } = manualBuffer();
  for (const bytes of [1000, 3000, BYTES_MAX]) {
    reads.startTurn();
    reads.take(bytes);
  }
  t.is(reads.keptBytes, BYTES_MAX);
});

test('the memory is given back after the idle time without a turn, and a turn meanwhile postpones it', (t) => {
  const { reads, advance } = manualBuffer();
  reads.startTurn();
  reads.take(500);
  advance(IDLE_MS - 1);
  reads.startTurn();
  advance(IDLE_MS - 1);
  t.is(reads.keptBytes, 500);
  advance(1);
  t.is(reads.keptBytes, 0);
  reads.startTurn();
  t.is(reads.take(64).length, 64);
});
