// Memory kept for reuse while uses keep coming and given back once they stop: a fresh large buffer per use is
// external memory (page faults while it is filled, and V8 counts it against the old generation's limit until
// a scavenge frees it), while one kept forever would hold its memory in every idle process. Invariants: the
// kept buffer is never larger than `bytesMax`; after `idleMs` without a use nothing is kept.
import { assert } from './assert.js';

export interface IdleKeptBufferOptions {
  readonly bytesMax: number;
  readonly idleMs: number;
  readonly nowMs: () => number;
  /** Runs `callback` once after `delayMs`; the timer must not keep the process alive. */
  readonly schedule: (callback: () => void, delayMs: number) => void;
}

export class IdleKeptBuffer {
  private kept: Buffer = Buffer.allocUnsafeSlow(0);
  private lastUseMs = 0;
  private idleCheckPending = false;

  constructor(private readonly options: IdleKeptBufferOptions) {
    assert(options.bytesMax > 0 && options.idleMs > 0, 'a kept buffer has a positive bound and idle time');
  }

  get bytesMax(): number {
    return this.options.bytesMax;
  }

  /** Bytes kept for the next use. */
  get keptBytes(): number {
    return this.kept.length;
  }

  /** A use: the idle time counts from here. */
  markUse(): void {
    this.lastUseMs = this.options.nowMs();
    this.armIdleCheck(this.options.idleMs);
  }

  /**
   * The kept memory, at least `bytes` long, marking a use; past the bound undefined (the caller allocates its
   * own). A shorter kept buffer is replaced, not copied, by one that at least doubles it (a run of growing uses
   * allocates a few times, not once each); views of the old one keep it alive until they go.
   */
  atLeast(bytes: number): Buffer | undefined {
    assert(Number.isSafeInteger(bytes) && bytes >= 0, 'kept memory is asked for in whole, non-negative bytes');
    this.markUse();
    if (bytes > this.options.bytesMax) return undefined;
    if (this.kept.length < bytes) this.kept = Buffer.allocUnsafeSlow(Math.min(this.options.bytesMax, Math.max(bytes, this.kept.length * 2)));
    this.armIdleCheck(this.options.idleMs);
    return this.kept;
  }

  private armIdleCheck(delayMs: number): void {
    if (this.idleCheckPending || this.kept.length === 0) return;
    this.idleCheckPending = true;
    this.options.schedule(() => this.checkIdle(), delayMs);
  }

  /** One pending check at a time, re-armed for the rest of the idle time when a use came meanwhile. */
  private checkIdle(): void {
    this.idleCheckPending = false;
    const idleForMs = this.options.nowMs() - this.lastUseMs;
    if (idleForMs >= this.options.idleMs) {
      this.kept = Buffer.allocUnsafeSlow(0);
      return;
    }
    this.armIdleCheck(this.options.idleMs - idleForMs);
  }
}

/** The real clock and unref'd timers: what a process or thread outside tests runs an IdleKeptBuffer on. */
export const realIdleTimers: Pick<IdleKeptBufferOptions, 'nowMs' | 'schedule'> = {
  nowMs: () => performance.now(),
  schedule: (callback, delayMs) => { setTimeout(callback, delayMs).unref(); },
};
