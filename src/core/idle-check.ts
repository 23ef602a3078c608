// The timer behind memory kept for reuse: after `idleMs` without a use, `release` runs once. One check is
// pending at a time; a use meanwhile re-arms it for the rest of the idle time instead of starting a new timer
// per use (a timer per ILP request or commit turn would cost more than the memory it saves).
import { assert } from './assert.js';

export interface IdleTimers {
  readonly nowMs: () => number;
  /** Runs `callback` once after `delayMs`; the timer must not keep the process alive. */
  readonly schedule: (callback: () => void, delayMs: number) => void;
}

/** What memory kept for reuse is configured with: its bound, its idle time and the timers that count it. */
export interface KeptMemoryOptions extends IdleTimers {
  readonly bytesMax: number;
  readonly idleMs: number;
}

export class IdleCheck {
  private lastUseMs = 0;
  private pending = false;

  /** `holds`: whether anything is kept now (no timer runs while nothing is). */
  constructor(private readonly idleMs: number, private readonly timers: IdleTimers, private readonly holds: () => boolean, private readonly release: () => void) {
    assert(idleMs > 0, 'kept memory is given back after a positive idle time');
  }

  /** A use: the idle time counts from here. */
  markUse(): void {
    this.lastUseMs = this.timers.nowMs();
    this.arm(this.idleMs);
  }

  /** Starts the idle timer if something is kept and none is pending (call after keeping something). */
  arm(delayMs: number = this.idleMs): void {
    if (this.pending || !this.holds()) return;
    this.pending = true;
    this.timers.schedule(() => this.check(), delayMs);
  }

  private check(): void {
    this.pending = false;
    const idleForMs = this.timers.nowMs() - this.lastUseMs;
    if (idleForMs >= this.idleMs) {
      this.release();
      return;
    }
    this.arm(this.idleMs - idleForMs);
  }
}

/** The real clock and unref'd timers: what a process or thread outside tests runs an idle check on. */
export const realIdleTimers: IdleTimers = {
  nowMs: () => performance.now(),
  schedule: (callback, delayMs) => { setTimeout(callback, delayMs).unref(); },
};
