// The primary's start waits for every worker's first readiness and fails on an exit before it.
import test from 'ava';
import { WorkersStarting } from '../../../src/cluster/workers-starting.js';

test('resolves once every slot is ready, whatever the order; later exits change nothing', async (t) => {
  const starting = new WorkersStarting([1, 2, 3]);
  starting.ready(2);
  starting.ready(2);
  starting.ready(3);
  let done = false;
  void starting.done.then(() => { done = true; });
  await Promise.resolve();
  t.false(done, 'slot 1 is not ready yet');
  starting.ready(1);
  await starting.done;
  t.false(starting.exited(1, 1234), 'an exit after the start is the pool\'s to handle');
});

test('an exit before readiness fails the start, naming the worker; the first failure wins', async (t) => {
  const starting = new WorkersStarting([1, 2]);
  starting.ready(1);
  t.false(starting.exited(1, 10), 'slot 1 was ready: its exit does not fail the start');
  t.true(starting.exited(2, 4321));
  t.false(starting.exited(2, 4322));
  const error = await t.throwsAsync(starting.done);
  t.is((error as { code?: string } | undefined)?.code, 'SVC_START');
  t.regex(error?.message ?? '', /worker 2 \(pid 4321\) exited before it was ready/);
});

test('no workers: done at once', async (t) => {
  t.true(await new WorkersStarting([]).done.then(() => true));
});
