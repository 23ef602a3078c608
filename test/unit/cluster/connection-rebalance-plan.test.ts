// The rebalance rule on its own: who closes busy connections, and how many, given every worker's reported counts.
import test from 'ava';
import { planConnectionSheds, type WorkerConnectionCount } from '../../../src/cluster/connection-rebalance-plan.js';

const INTERVAL_MS = 250;
const NOW_MS = 10_000;

function worker(busy: number, state: Partial<WorkerConnectionCount> = {}): WorkerConnectionCount {
  return { busy, leaving: 0, live: true, orderPending: false, lastOrderMs: Number.NEGATIVE_INFINITY, ...state };
}

function workers(...busy: number[]): WorkerConnectionCount[] {
  return busy.map((count) => worker(count));
}

test('the worker holding every busy connection closes its whole surplus at once; the idle one closes none', (t) => {
  t.deepEqual(planConnectionSheds(workers(8, 0), NOW_MS, INTERVAL_MS), [{ worker: 0, count: 4 }]);
  t.deepEqual(planConnectionSheds(workers(7, 0), NOW_MS, INTERVAL_MS), [{ worker: 0, count: 3 }], 'the share rounds up');
  t.deepEqual(planConnectionSheds(workers(0, 2), NOW_MS, INTERVAL_MS), [{ worker: 1, count: 1 }]);
  t.deepEqual(planConnectionSheds(workers(6, 2), NOW_MS, INTERVAL_MS), [{ worker: 0, count: 2 }]);
});

test('a difference of one connection is left alone (hysteresis), and so is an even split', (t) => {
  t.deepEqual(planConnectionSheds(workers(5, 4), NOW_MS, INTERVAL_MS), []);
  t.deepEqual(planConnectionSheds(workers(4, 4), NOW_MS, INTERVAL_MS), []);
  t.deepEqual(planConnectionSheds(workers(1, 0), NOW_MS, INTERVAL_MS), [], 'never the last busy connection of a worker');
});

test('connections already leaving count towards the share: they are not shed twice', (t) => {
  t.deepEqual(planConnectionSheds([worker(4, { leaving: 4 }), worker(0)], NOW_MS, INTERVAL_MS), []);
  // Moved, and counted by both workers until the leaving window ends: still nothing to do.
  t.deepEqual(planConnectionSheds([worker(4, { leaving: 4 }), worker(4)], NOW_MS, INTERVAL_MS), []);
  // Two of the four came back to the same worker: those two go again.
  t.deepEqual(planConnectionSheds([worker(6, { leaving: 0 }), worker(2)], NOW_MS, INTERVAL_MS), [{ worker: 0, count: 2 }]);
  t.deepEqual(planConnectionSheds([worker(6, { leaving: 2 }), worker(0)], NOW_MS, INTERVAL_MS), [{ worker: 0, count: 2 }]);
});

test('several workers above their share each close their surplus', (t) => {
  t.deepEqual(planConnectionSheds(workers(4, 4, 0), NOW_MS, INTERVAL_MS), [{ worker: 0, count: 1 }, { worker: 1, count: 1 }]);
  t.deepEqual(planConnectionSheds(workers(9, 0, 0), NOW_MS, INTERVAL_MS), [{ worker: 0, count: 6 }]);
  t.deepEqual(planConnectionSheds(workers(3, 3, 2), NOW_MS, INTERVAL_MS), []);
});

test('one worker, or one live worker, never closes anything', (t) => {
  t.deepEqual(planConnectionSheds(workers(16), NOW_MS, INTERVAL_MS), []);
  t.deepEqual(planConnectionSheds([worker(8), worker(0, { live: false })], NOW_MS, INTERVAL_MS), [], 'a dead worker accepts nothing');
});

test('a worker with an unsettled order, or one ordered within the interval, waits', (t) => {
  t.deepEqual(planConnectionSheds([worker(8, { orderPending: true }), worker(0)], NOW_MS, INTERVAL_MS), []);
  t.deepEqual(planConnectionSheds([worker(8, { lastOrderMs: NOW_MS - INTERVAL_MS + 1 }), worker(0)], NOW_MS, INTERVAL_MS), []);
  t.deepEqual(planConnectionSheds([worker(8, { lastOrderMs: NOW_MS - INTERVAL_MS }), worker(0)], NOW_MS, INTERVAL_MS), [{ worker: 0, count: 4 }]);
});
