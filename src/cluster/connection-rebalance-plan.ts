// The rule that decides which workers close busy kept-alive connections this interval, and how many, from every
// live worker's last reported counts. Pure (the primary's connection-rebalancer.ts holds the state and the timer).
// A worker above its fair share is told to close its whole surplus at once (each connection at its own next
// request boundary), so an imbalance corrects itself within one round of requests however long they are.
// Invariants: nothing is chosen with fewer than two live workers; the share counts connections already leaving
// a worker (they reconnect somewhere), so they are not shed twice; a worker is chosen only above its share and
// two or more above the least busy worker (one connection moving must not just swap the imbalance, the
// hysteresis); never a worker whose order is still unsettled or was sent less than one interval ago; a worker
// always keeps at least one busy connection.
import { assert } from '../core/assert.js';

export interface WorkerConnectionCount {
  /** Busy kept-alive connections the worker last reported, not counting those leaving it. */
  readonly busy: number;
  /** Connections it has answered (or will answer) with Connection: close and that may not have reconnected yet. */
  readonly leaving: number;
  /** False while the worker is dead or restarting: it can accept nothing, so it neither counts nor is chosen. */
  readonly live: boolean;
  /** Its last order is neither settled by a report nor expired. */
  readonly orderPending: boolean;
  /** When its last order was sent (ms), or -Infinity. */
  readonly lastOrderMs: number;
}

export interface ConnectionShed {
  /** Index into the `workers` given to planConnectionSheds. */
  readonly worker: number;
  /** Busy connections it should close, each after its current or next complete request. */
  readonly count: number;
}

/** The workers that should close busy connections now, and how many each. */
export function planConnectionSheds(workers: readonly WorkerConnectionCount[], nowMs: number, intervalMs: number): ConnectionShed[] {
  assert(intervalMs > 0, 'the rebalance interval bounds how often a worker is ordered to close connections');
  let live = 0;
  let total = 0;
  let least = Number.POSITIVE_INFINITY;
  for (const worker of workers) {
    if (!worker.live) continue;
    live++;
    total += worker.busy + worker.leaving;
    least = Math.min(least, worker.busy);
  }
  if (live < 2) return [];
  const share = Math.ceil(total / live);
  const sheds: ConnectionShed[] = [];
  for (const [index, worker] of workers.entries()) {
    if (!worker.live || worker.orderPending || nowMs - worker.lastOrderMs < intervalMs) continue;
    if (worker.busy < 2 || worker.busy <= share || worker.busy - least < 2) continue;
    // The share is at least 1 here (this worker alone counts 2 or more), so the worker keeps one connection.
    const count = worker.busy - share;
    assert(count >= 1 && count < worker.busy, 'a shed closes at least one connection and leaves the worker one');
    sheds.push({ worker: index, count });
  }
  return sheds;
}
