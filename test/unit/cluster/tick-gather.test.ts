// A TCP tick's group waits for the units of every worker serving TCP connections, at most a bounded time.
// The bound runs on a clock the test drives: what is asserted is which delay was asked for and what releases.
import test from 'ava';
import { TickGather, type GatherSchedule } from '../../../src/cluster/tick-gather.js';
import { isSettled } from '../../helpers/promise-state.js';

interface Scheduled { readonly callback: () => void; readonly delayMs: number }

function recordingSchedule(): { readonly schedule: GatherSchedule; readonly scheduled: Scheduled[] } {
  const scheduled: Scheduled[] = [];
  return { schedule: (callback, delayMs) => { scheduled.push({ callback, delayMs }); }, scheduled };
}

const TICK = 1_000_000;

test('waits for the other worker\'s unit of the tick, and is released by its arrival', async (t) => {
  const { schedule, scheduled } = recordingSchedule();
  const gather = new TickGather(() => new Set(['worker-1', 'worker-2']), 300, schedule);
  gather.noteArrival('worker-1', TICK);
  const waiting = gather.wait(TICK, TICK + 40);
  t.deepEqual(scheduled.map((entry) => entry.delayMs), [260], 'the bound counts from the tick');
  t.false(await isSettled(waiting), 'worker-2 has sent nothing of this tick yet');
  gather.noteArrival('worker-2', TICK - 1000);
  t.false(await isSettled(waiting), 'a unit of another tick does not count');
  gather.noteArrival('worker-2', TICK);
  t.true(await isSettled(waiting));
  const next = gather.wait(TICK + 1000, TICK + 1000);
  scheduled[0]?.callback();
  t.false(await isSettled(next), 'the bound of the released wait fires late and releases nothing else');
});

test('no wait when every expected worker already sent its unit, or nobody else serves TCP', async (t) => {
  const { schedule, scheduled } = recordingSchedule();
  const both = new TickGather(() => new Set(['worker-1', 'worker-2']), 300, schedule);
  both.noteArrival('worker-2', TICK);
  both.noteArrival('worker-1', TICK);
  t.true(await isSettled(both.wait(TICK, TICK)));
  const alone = new TickGather(() => new Set(['worker-1']), 300, schedule);
  alone.noteArrival('worker-1', TICK);
  t.true(await isSettled(alone.wait(TICK, TICK)));
  const single = new TickGather(() => new Set(), 300, schedule);
  single.noteArrival('local', TICK);
  t.true(await isSettled(single.wait(TICK, TICK)), 'single-process mode: nothing to wait for');
  t.is(scheduled.length, 0, 'no bound was set');
});

test('waits at most the bound after the tick: a worker whose connections hold no rows sends nothing', async (t) => {
  const { schedule, scheduled } = recordingSchedule();
  const gather = new TickGather(() => new Set(['worker-1', 'worker-2']), 150, schedule);
  gather.noteArrival('worker-1', TICK);
  const waiting = gather.wait(TICK, TICK);
  t.deepEqual(scheduled.map((entry) => entry.delayMs), [150]);
  t.false(await isSettled(waiting));
  scheduled[0]?.callback();
  t.true(await isSettled(waiting), 'the bound releases the group');
  t.true(await isSettled(gather.wait(TICK - 10_000, TICK)), 'a late unit of an old tick waits for nobody');
  t.is(scheduled.length, 1);
  const ahead = gather.wait(TICK + 10_000, TICK);
  t.deepEqual(scheduled.map((entry) => entry.delayMs), [150, 150], 'a tick stamped ahead of this clock waits no longer than the bound');
  scheduled[1]?.callback();
  t.true(await isSettled(ahead));
});
