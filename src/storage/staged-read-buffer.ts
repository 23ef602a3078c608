// The primary's memory for reading ILP requests' staged chunk files (staged-chunks.ts), reused from one commit
// turn to the next. A fresh buffer per request (about 1 MB per 10,000 rows) is external memory, and V8 counts
// external memory allocated since the last full GC against the old generation's limit until a scavenge
// frees it: once a full GC had set that limit close to the heap's size (the memory reducer does after a few
// idle seconds), ingest started a mark-compact every few hundred ms and kept doing so. Invariants: a view
// taken in a turn stays valid until the next turn starts, and no longer; the kept buffer is never larger
// than `bytesMax`; after `idleMs` without a turn nothing is kept.
import { assert } from '../core/assert.js';
import { IdleKeptBuffer, type IdleKeptBufferOptions } from '../core/idle-kept-buffer.js';
import { realIdleTimers } from '../core/idle-check.js';
import { stagedReadBytesMax, stagedReadIdleMs } from '../core/limits.js';

export type StagedReadBufferOptions = IdleKeptBufferOptions;

/** Views start at multiples of this, so Float64Array offsets and Int32Array ids fit on them. */
const VIEW_ALIGNMENT_BYTES = 8;

function aligned(position: number): number {
  return Math.ceil(position / VIEW_ALIGNMENT_BYTES) * VIEW_ALIGNMENT_BYTES;
}

export class StagedReadBuffer {
  private readonly keeper: IdleKeptBuffer;
  private usedBytes = 0;

  constructor(options: StagedReadBufferOptions) {
    this.keeper = new IdleKeptBuffer(options);
  }

  /** Starts a commit turn: the views taken before may be overwritten from now on. */
  startTurn(): void {
    this.usedBytes = 0;
    this.keeper.markUse();
  }

  /**
   * `bytes` of writable memory at an 8-aligned offset of its buffer, valid until the next startTurn. Past the
   * bound a buffer of its own, not kept. When the kept buffer is full a larger one replaces it (the views
   * already taken keep the old one alive until they go), sized for the whole turn so the next turn fits.
   */
  take(bytes: number): Buffer {
    assert(Number.isSafeInteger(bytes) && bytes >= 0, 'a staged read has a whole, non-negative size');
    const start = aligned(this.usedBytes);
    if (start + bytes > this.keeper.keptBytes) {
      if (bytes > this.keeper.bytesMax) return Buffer.allocUnsafeSlow(bytes);
      const grown = this.keeper.atLeast(Math.min(this.keeper.bytesMax, start + bytes));
      assert(grown !== undefined && grown.length >= bytes, 'kept memory within the bound is at least what was asked for');
      this.usedBytes = bytes;
      return grown.subarray(0, bytes);
    }
    this.usedBytes = start + bytes;
    const view = this.keeper.atLeast(start + bytes)?.subarray(start, start + bytes);
    assert(view !== undefined && view.byteOffset % VIEW_ALIGNMENT_BYTES === 0, 'a staged read view is aligned within the kept buffer');
    return view;
  }

  /** Bytes kept for the next turn. */
  get keptBytes(): number {
    return this.keeper.keptBytes;
  }
}

/** The engine's buffer: real clock, unref'd timers. */
export function engineStagedReadBuffer(): StagedReadBuffer {
  return new StagedReadBuffer({ bytesMax: stagedReadBytesMax, idleMs: stagedReadIdleMs, ...realIdleTimers });
}
