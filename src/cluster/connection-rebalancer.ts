// Primary side of connection rebalancing: keeps each worker slot's last reported counts of busy and leaving
// kept-alive connections and, once per interval, orders the workers planConnectionSheds picks to close their
// surplus. A worker's next order waits until it has settled the previous one in a report (so the primary
// decides on counts taken after the close, not before), or until that order has expired (a restarted worker
// never settles it).
// A dead slot is left out, and its counts forgotten: its replacement reports its own.
import { connectionRebalanceIntervalMs, connectionShedOrderTtlMs } from '../core/limits.js';
import { planConnectionSheds, type WorkerConnectionCount } from './connection-rebalance-plan.js';
import type { WorkerPool, WorkerSlot } from './worker-pool.js';

interface SlotConnections {
  busy: number;
  leaving: number;
  /** Id of the last order sent to this slot; 0 before any. */
  sentOrder: number;
  settledOrder: number;
  lastOrderMs: number;
}

/** An order unsettled after this long is given up: the worker dropped its own after connectionShedOrderTtlMs. */
const ORDER_EXPIRY_MS = 2 * connectionShedOrderTtlMs;

export class ConnectionRebalancer {
  private readonly slots = new Map<number, SlotConnections>();
  private readonly timer: NodeJS.Timeout;
  private nextOrder = 1;

  constructor(private readonly pool: WorkerPool) {
    this.timer = setInterval(() => this.rebalance(Date.now()), connectionRebalanceIntervalMs);
    this.timer.unref();
  }

  onReport(slot: WorkerSlot, busy: number, leaving: number, settledOrder: number): void {
    const state = this.stateOf(slot.slot);
    state.busy = busy;
    state.leaving = leaving;
    state.settledOrder = Math.max(state.settledOrder, settledOrder);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private rebalance(nowMs: number): void {
    const slots = this.pool.slots;
    const counts = slots.map((slot): WorkerConnectionCount => {
      const live = slot.worker?.isConnected() === true;
      // A dead worker's connections died with it: its replacement starts from nothing.
      if (!live) this.slots.delete(slot.slot);
      const state = this.stateOf(slot.slot);
      const pending = state.sentOrder > state.settledOrder && nowMs - state.lastOrderMs < ORDER_EXPIRY_MS;
      return { busy: state.busy, leaving: state.leaving, live, orderPending: pending, lastOrderMs: state.lastOrderMs };
    });
    for (const shed of planConnectionSheds(counts, nowMs, connectionRebalanceIntervalMs)) {
      const slot = slots[shed.worker];
      if (slot === undefined) continue;
      const state = this.stateOf(slot.slot);
      state.sentOrder = this.nextOrder++;
      state.lastOrderMs = nowMs;
      this.pool.send(slot, { type: 'svc:shed-connections', order: state.sentOrder, count: shed.count });
    }
  }

  private stateOf(slot: number): SlotConnections {
    let state = this.slots.get(slot);
    if (state === undefined) {
      state = { busy: 0, leaving: 0, sentOrder: 0, settledOrder: 0, lastOrderMs: Number.NEGATIVE_INFINITY };
      this.slots.set(slot, state);
    }
    return state;
  }
}
