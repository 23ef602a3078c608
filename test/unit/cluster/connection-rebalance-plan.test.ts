// The rebalance rule on its own: who closes a busy connection, given every worker's reported count.
import test from 'ava';
import { planConnectionSheds, type WorkerConnectionCount } from '../../../src/cluster/connection-rebalance-plan.js';

const INTERVAL_MS = 250;
const NOW_MS = 10_000;

function worker(busy: number, state: Partial<WorkerConnectionCount> = {}): WorkerConnectionCount {
  return { busy, live: true, orderPending: false, lastOrderMs: Number.NEGATIVE_INFINITY, ...state };
}

function workers(...busy: number[]): WorkerConnectionCount[] {
  return busy.map((count) => worker(count));
}

test('the worker holding every busy connection closes one; the idle one does not', (t) => {
  t.deepEqual(planConnectionSheds(workers(8, 0), NOW_MS, INTERVAL_MS), [0]);
  t.deepEqual(planConnectionSheds(workers(0, 2), NOW_MS, INTERVAL_MS), [1]);
});

test('a difference of one connection is left alone (hysteresis), and so is an even split', (t) => {
  t.deepEqual(planConnectionSheds(workers(5, 4), NOW_MS, INTERVAL_MS), []);
  t.deepEqual(planConnectionSheds(workers(4, 4), NOW_MS, INTERVAL_MS), []);
  t.deepEqual(planConnectionSheds(workers(1, 0), NOW_MS, INTERVAL_MS), [], 'never the last busy connection of a worker');
});

test('several workers above their share each close one', (t) => {
  t.deepEqual(planConnectionSheds(workers(4, 4, 0), NOW_MS, INTERVAL_MS), [0, 1]);
  t.deepEqual(planConnectionSheds(workers(3, 3, 2), NOW_MS, INTERVAL_MS), []);
});

test('one worker, or one live worker, never closes anything', (t) => {
  t.deepEqual(planConnectionSheds(workers(16), NOW_MS, INTERVAL_MS), []);
  t.deepEqual(planConnectionSheds([worker(8), worker(0, { live: false })], NOW_MS, INTERVAL_MS), [], 'a dead worker accepts nothing');
});

test('a worker with an unsettled order, or one ordered within the interval, waits', (t) => {
  t.deepEqual(planConnectionSheds([worker(8, { orderPending: true }), worker(0)], NOW_MS, INTERVAL_MS), []);
  t.deepEqual(planConnectionSheds([worker(8, { lastOrderMs: NOW_MS - INTERVAL_MS + 1 }), worker(0)], NOW_MS, INTERVAL_MS), []);
  t.deepEqual(planConnectionSheds([worker(8, { lastOrderMs: NOW_MS - INTERVAL_MS }), worker(0)], NOW_MS, INTERVAL_MS), [0]);
});
