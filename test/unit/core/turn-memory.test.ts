// The primary's turn memory: views of one turn (an outermost scope) are aligned and disjoint, the next turn
// reuses the same memory, a nested scope frees what it took and only that, a full kept buffer never hands out
// memory that overlaps a live view (the bug this file was rewritten for: a turn past the bound read its next
// staged file over the first one's), the bound holds, memory is handed out only inside a scope, and it goes
// after the idle time. A manual clock and scheduler stand in for the engine's timers.
import test, { type ExecutionContext } from 'ava';
import { TurnMemory } from '../../../src/core/turn-memory.js';
import { manualClock } from '../../helpers/manual-clock.js';

const IDLE_MS = 10_000;
const BYTES_MAX = 4096;

function manualMemory(): { memory: TurnMemory; advance: (ms: number) => void } {
  const clock = manualClock();
  const memory = new TurnMemory({ bytesMax: BYTES_MAX, idleMs: IDLE_MS, nowMs: clock.nowMs, schedule: clock.schedule });
  return { memory, advance: clock.advance };
}

/** The memory after a turn that took `bytes` (the first turn keeps a buffer of the bound). */
function usedMemory(bytes: number): ReturnType<typeof manualMemory> {
  const used = manualMemory();
  used.memory.scope(() => used.memory.bytes(bytes));
  return used;
}

/** Fills each view with its own byte value, then checks that every view still holds only its value. */
function assertDisjoint(t: ExecutionContext, views: readonly Buffer[]): void {
  views.forEach((view, k) => view.fill(k + 1));
  views.forEach((view, k) => t.true(view.every((byte) => byte === k + 1), `view ${k} was overwritten`));
}

test('views of one turn are 8-aligned and do not overlap; the next turn reuses the memory', (t) => {
  const { memory } = usedMemory(2000);
  const first = memory.scope(() => {
    const views = [memory.bytes(1000), memory.bytes(13), memory.bytes(200)];
    t.true(views.every((view) => view.buffer === views[0]?.buffer));
    t.deepEqual(views.map((view) => view.byteOffset), [0, 1000, 1016]);
    return views[0];
  });
  const again = memory.scope(() => memory.bytes(500));
  t.true(again.buffer === first?.buffer);
  t.is(again.byteOffset, 0);
});

test('typed views have the asked length and sit on their own bytes', (t) => {
  const { memory } = usedMemory(2000);
  memory.scope(() => {
    const keys = memory.float64(10);
    const ids = memory.int32(3);
    const bytes = memory.bytes(5);
    t.is(keys.length, 10);
    t.is(ids.length, 3);
    t.deepEqual([keys.byteOffset, ids.byteOffset, bytes.byteOffset], [0, 80, 96]);
  });
});

test('a nested scope frees what its work took and keeps what was taken before it, also when the work throws', (t) => {
  const { memory } = usedMemory(2000);
  memory.scope(() => {
    const before = memory.bytes(100);
    const inside = memory.scope(() => memory.bytes(300).byteOffset);
    t.is(inside, 104);
    t.is(memory.bytes(8).byteOffset, 104);
    t.throws(() => memory.scope(() => {
      memory.bytes(500);
      throw new RangeError('work failed');
    }));
    t.is(memory.bytes(8).byteOffset, 112);
    t.true(before.buffer === memory.bytes(1).buffer);
  });
});

test('memory is handed out only inside a scope', (t) => {
  const { memory } = manualMemory();
  t.throws(() => memory.bytes(8), { message: /inside a scope/ });
});

test('the first view takes a kept buffer of the bound\'s size at once, and later turns reuse it', (t) => {
  const { memory } = manualMemory();
  const first = memory.scope(() => {
    const views = [memory.bytes(100), memory.bytes(1000)];
    t.is(memory.keptBytes, BYTES_MAX);
    t.true(views[1]?.buffer === views[0]?.buffer);
    assertDisjoint(t, views);
    return views[0];
  });
  t.true(memory.scope(() => memory.bytes(BYTES_MAX)).buffer === first?.buffer);
});

test('a view past the kept buffer inside a nested scope gets memory of its own, and the views after it stay disjoint', (t) => {
  const { memory } = usedMemory(BYTES_MAX);
  memory.scope(() => {
    const outer = memory.bytes(3000);
    const inside = memory.scope(() => {
      const view = memory.bytes(2000);
      t.false(view.buffer === outer.buffer);
      return view.fill(0xee);
    });
    const after = [memory.bytes(700), memory.bytes(300)];
    t.true(after.every((view) => view.buffer === outer.buffer));
    assertDisjoint(t, [outer, ...after]);
    t.true(inside.every((byte) => byte === 0xee));
  });
});

test('when the memory is given back during a turn, its views stay intact and new ones go into a new buffer', (t) => {
  const { memory, advance } = manualMemory();
  memory.scope(() => {
    const before = memory.bytes(3000);
    advance(IDLE_MS);
    t.is(memory.keptBytes, 0);
    const after = memory.bytes(2000);
    t.false(after.buffer === before.buffer);
    assertDisjoint(t, [before, after]);
  });
});

test('a full kept buffer at the bound gives memory of its own instead of overwriting live views', (t) => {
  const { memory } = usedMemory(BYTES_MAX);
  memory.scope(() => {
    const views = [memory.bytes(3000), memory.bytes(1000), memory.bytes(600), memory.bytes(300)];
    t.true(views[1]?.buffer === views[0]?.buffer);
    t.false(views[2]?.buffer === views[0]?.buffer);
    t.false(views[3]?.buffer === views[0]?.buffer);
    assertDisjoint(t, views);
  });
  t.is(memory.keptBytes, BYTES_MAX);
});

test('a request past the bound gets memory of its own and the kept buffer stays', (t) => {
  const { memory } = usedMemory(200);
  memory.scope(() => {
    const kept = memory.bytes(100);
    const large = memory.bytes(BYTES_MAX + 1);
    t.is(large.length, BYTES_MAX + 1);
    t.false(large.buffer === kept.buffer);
    t.true(memory.bytes(96).buffer === kept.buffer);
  });
  t.is(memory.keptBytes, BYTES_MAX);
});

test('the memory is given back after the idle time without a turn, and a turn meanwhile postpones it', (t) => {
  const { memory, advance } = usedMemory(500);
  advance(IDLE_MS - 1);
  memory.scope(() => memory.bytes(8));
  advance(IDLE_MS - 1);
  t.is(memory.keptBytes, BYTES_MAX);
  advance(1);
  t.is(memory.keptBytes, 0);
  t.is(memory.scope(() => memory.bytes(64)).length, 64);
});
