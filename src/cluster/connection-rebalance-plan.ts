// The rule that decides which workers close one busy kept-alive connection this interval, from every live
// worker's last reported count. Pure (the primary's connection-rebalancer.ts holds the state and the timer).
// Invariants: nothing is chosen with fewer than two live workers; a worker is chosen only above its fair
// share and two or more above the least busy worker (one connection moving must not just swap the imbalance,
// the hysteresis); never a worker whose order is still unsettled or was sent less than one interval ago; never
// a worker holding a single busy connection.
import { assert } from '../core/assert.js';

export interface WorkerConnectionCount {
  /** Busy kept-alive connections the worker last reported. */
  readonly busy: number;
  /** False while the worker is dead or restarting: it can accept nothing, so it neither counts nor is chosen. */
  readonly live: boolean;
  /** Its last order is neither settled by a report nor expired. */
  readonly orderPending: boolean;
  /** When its last order was sent (ms), or -Infinity. */
  readonly lastOrderMs: number;
}

/** Indexes (into `workers`) of the workers that should close one busy connection now. */
export function planConnectionSheds(workers: readonly WorkerConnectionCount[], nowMs: number, intervalMs: number): number[] {
  assert(intervalMs > 0, 'the rebalance interval bounds how often a worker closes a connection');
  let live = 0;
  let total = 0;
  let least = Number.POSITIVE_INFINITY;
  for (const worker of workers) {
    if (!worker.live) continue;
    live++;
    total += worker.busy;
    least = Math.min(least, worker.busy);
  }
  if (live < 2) return [];
  const share = Math.ceil(total / live);
  const chosen: number[] = [];
  for (const [index, worker] of workers.entries()) {
    if (!worker.live || worker.orderPending || nowMs - worker.lastOrderMs < intervalMs) continue;
    if (worker.busy >= 2 && worker.busy > share && worker.busy - least >= 2) chosen.push(index);
  }
  return chosen;
}
