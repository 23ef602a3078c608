// The segment encoder thread's buffer for one segment's raw bytes, kept for the next segment while segments
// keep coming and released once they stop. A fresh buffer per segment cost a page fault per 4 KiB while the
// captured bytes were read into it, and external-memory garbage; a kept one that never shrank held up to a
// full part of memory in every idle primary. Invariants: the kept buffer is never larger than `bytesMax`, and
// after `idleMs` without a request nothing is kept.
import { assert } from '../core/assert.js';
import { PART_BYTES_MAX } from './capture-parts.js';

/** A whole part (PART_BYTES_MAX raw bytes) and its header fit: a busy primary's parts all reuse the buffer. */
export const RAW_SCRATCH_BYTES_MAX = PART_BYTES_MAX + 1024 * 1024;
/** Ingest commits every few hundred ms; 10 s without a segment is an idle primary, which gives the memory back. */
export const RAW_SCRATCH_IDLE_MS = 10_000;

export interface RawScratchOptions {
  readonly bytesMax: number;
  readonly idleMs: number;
  readonly nowMs: () => number;
  /** Runs `callback` once after `delayMs`; the thread's timer must not keep it alive. */
  readonly schedule: (callback: () => void, delayMs: number) => void;
}

export class RawScratch {
  private kept: Buffer = Buffer.allocUnsafeSlow(0);
  private lastTakenMs = 0;
  private idleCheckPending = false;

  constructor(private readonly options: RawScratchOptions) {
    assert(options.bytesMax > 0 && options.idleMs > 0, 'a raw scratch has a positive bound and idle time');
  }

  /** `bytes` of writable memory, valid until the next call; past the bound a buffer of its own, not kept. */
  take(bytes: number): Buffer {
    assert(Number.isInteger(bytes) && bytes >= 0, 'a raw buffer has a whole, non-negative size');
    this.lastTakenMs = this.options.nowMs();
    if (bytes > this.options.bytesMax) return Buffer.allocUnsafeSlow(bytes);
    if (this.kept.length < bytes) {
      // Doubling: a run of growing segments allocates a few times, not once per segment.
      this.kept = Buffer.allocUnsafeSlow(Math.min(this.options.bytesMax, Math.max(bytes, this.kept.length * 2)));
    }
    this.armIdleCheck(this.options.idleMs);
    assert(this.kept.length <= this.options.bytesMax, 'the kept raw buffer stays within its bound');
    return this.kept.subarray(0, bytes);
  }

  /** Bytes kept for the next segment. */
  get keptBytes(): number {
    return this.kept.length;
  }

  private armIdleCheck(delayMs: number): void {
    if (this.idleCheckPending || this.kept.length === 0) return;
    this.idleCheckPending = true;
    this.options.schedule(() => this.checkIdle(), delayMs);
  }

  /** One pending check at a time, re-armed for the rest of the idle time when a segment came meanwhile. */
  private checkIdle(): void {
    this.idleCheckPending = false;
    const idleForMs = this.options.nowMs() - this.lastTakenMs;
    if (idleForMs >= this.options.idleMs) {
      this.kept = Buffer.allocUnsafeSlow(0);
      return;
    }
    this.armIdleCheck(this.options.idleMs - idleForMs);
  }
}

/** The encoder thread's scratch: real clock, unref'd timers. */
export function encoderRawScratch(): RawScratch {
  return new RawScratch({
    bytesMax: RAW_SCRATCH_BYTES_MAX, idleMs: RAW_SCRATCH_IDLE_MS, nowMs: () => performance.now(),
    schedule: (callback, delayMs) => { setTimeout(callback, delayMs).unref(); },
  });
}
