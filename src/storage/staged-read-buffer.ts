// The primary's memory for reading ILP requests' staged chunk files (staged-chunks.ts), reused from one commit
// turn to the next. A fresh buffer per request (about 1 MB per 10,000 rows) is external memory, and V8 counts
// external memory allocated since the last full GC against the old generation's limit until a scavenge
// frees it: once a full GC had set that limit close to the heap's size (the memory reducer does after a few
// idle seconds), ingest started a mark-compact every few hundred ms and kept doing so. Invariants: a view
// taken in a turn stays valid until the next turn starts, and no longer; the kept buffer is never larger
// than `bytesMax`; after `idleMs` without a turn nothing is kept.
import { assert } from '../core/assert.js';
import { stagedReadBytesMax, stagedReadIdleMs } from '../core/limits.js';

export interface StagedReadBufferOptions {
  readonly bytesMax: number;
  readonly idleMs: number;
  readonly nowMs: () => number;
  /** Runs `callback` once after `delayMs`; the timer must not keep the process alive. */
  readonly schedule: (callback: () => void, delayMs: number) => void;
}

/** Views start at multiples of this, so Float64Array offsets and Int32Array ids fit on them. */
const VIEW_ALIGNMENT_BYTES = 8;

function aligned(position: number): number {
  return Math.ceil(position / VIEW_ALIGNMENT_BYTES) * VIEW_ALIGNMENT_BYTES;
}

export class StagedReadBuffer {
  private kept: Buffer = Buffer.allocUnsafeSlow(0);
  private usedBytes = 0;
  private lastTurnMs = 0;
  private idleCheckPending = false;

  constructor(private readonly options: StagedReadBufferOptions) {
    assert(options.bytesMax > 0 && options.idleMs > 0, 'a staged read buffer has a positive bound and idle time');
  }

  /** Starts a commit turn: the views taken before may be overwritten from now on. */
  startTurn(): void {
    this.usedBytes = 0;
    this.lastTurnMs = this.options.nowMs();
    this.armIdleCheck(this.options.idleMs);
  }

  /**
   * `bytes` of writable memory at an 8-aligned offset of its buffer, valid until the next startTurn. Past the
   * bound a buffer of its own, not kept. When the kept buffer is full a larger one replaces it (the views
   * already taken keep the old one alive until they go), sized for the whole turn so the next turn fits.
   */
  take(bytes: number): Buffer {
    assert(Number.isSafeInteger(bytes) && bytes >= 0, 'a staged read has a whole, non-negative size');
    const start = aligned(this.usedBytes);
    if (start + bytes > this.kept.length) {
      if (bytes > this.options.bytesMax) return Buffer.allocUnsafeSlow(bytes);
      const grown = Math.min(this.options.bytesMax, Math.max(start + bytes, this.kept.length * 2));
      this.kept = Buffer.allocUnsafeSlow(Math.max(bytes, grown));
      this.usedBytes = bytes;
      this.armIdleCheck(this.options.idleMs);
      return this.kept.subarray(0, bytes);
    }
    this.usedBytes = start + bytes;
    const view = this.kept.subarray(start, start + bytes);
    assert(view.byteOffset % VIEW_ALIGNMENT_BYTES === 0 && this.kept.length <= this.options.bytesMax, 'a staged read view is aligned and the kept buffer within its bound');
    return view;
  }

  /** Bytes kept for the next turn. */
  get keptBytes(): number {
    return this.kept.length;
  }

  private armIdleCheck(delayMs: number): void {
    if (this.idleCheckPending || this.kept.length === 0) return;
    this.idleCheckPending = true;
    this.options.schedule(() => this.checkIdle(), delayMs);
  }

  /** One pending check at a time, re-armed for the rest of the idle time when a turn came meanwhile. */
  private checkIdle(): void {
    this.idleCheckPending = false;
    const idleForMs = this.options.nowMs() - this.lastTurnMs;
    if (idleForMs >= this.options.idleMs) {
      this.kept = Buffer.allocUnsafeSlow(0);
      this.usedBytes = 0;
      return;
    }
    this.armIdleCheck(this.options.idleMs - idleForMs);
  }
}

/** The engine's buffer: real clock, unref'd timers. */
export function engineStagedReadBuffer(): StagedReadBuffer {
  return new StagedReadBuffer({
    bytesMax: stagedReadBytesMax, idleMs: stagedReadIdleMs, nowMs: () => performance.now(),
    schedule: (callback, delayMs) => { setTimeout(callback, delayMs).unref(); },
  });
}
