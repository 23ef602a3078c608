// A TCP tick's group waits for the units of every worker serving TCP connections, at most a bounded time.
import test from 'ava';
import { TickGather } from '../../../src/cluster/tick-gather.js';

function settledWithin(promise: Promise<void>, ms: number): Promise<boolean> {
  return Promise.race([promise.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms))]);
}

test('waits for the other worker\'s unit of the tick, and is released by its arrival', async (t) => {
  const gather = new TickGather(() => new Set(['worker-1', 'worker-2']), 5_000);
  const tick = Date.now();
  gather.noteArrival('worker-1', tick);
  const waiting = gather.wait(tick, Date.now());
  t.false(await settledWithin(waiting, 50), 'worker-2 has sent nothing of this tick yet');
  gather.noteArrival('worker-2', tick - 1000);
  t.false(await settledWithin(waiting, 50), 'a unit of another tick does not count');
  gather.noteArrival('worker-2', tick);
  t.true(await settledWithin(waiting, 50));
});

test('no wait when every expected worker already sent its unit, or nobody else serves TCP', async (t) => {
  const both = new TickGather(() => new Set(['worker-1', 'worker-2']), 5_000);
  const tick = Date.now();
  both.noteArrival('worker-2', tick);
  both.noteArrival('worker-1', tick);
  t.true(await settledWithin(both.wait(tick, Date.now()), 20));
  const alone = new TickGather(() => new Set(['worker-1']), 5_000);
  alone.noteArrival('worker-1', tick);
  t.true(await settledWithin(alone.wait(tick, Date.now()), 20));
  const single = new TickGather(() => new Set(), 5_000);
  single.noteArrival('local', tick);
  t.true(await settledWithin(single.wait(tick, Date.now()), 20), 'single-process mode: nothing to wait for');
});

test('waits at most the bound after the tick: a worker whose connections hold no rows sends nothing', async (t) => {
  const gather = new TickGather(() => new Set(['worker-1', 'worker-2']), 150);
  const tick = Date.now();
  gather.noteArrival('worker-1', tick);
  const started = Date.now();
  await gather.wait(tick, Date.now());
  const waited = Date.now() - started;
  t.true(waited >= 120 && waited < 1000, `waited ${waited} ms`);
  t.true(await settledWithin(gather.wait(tick - 10_000, Date.now()), 20), 'a late unit of an old tick waits for nobody');
  t.true(await settledWithin(gather.wait(tick + 10_000, tick), 200), 'a tick stamped ahead of this clock waits no longer than the bound');
});
