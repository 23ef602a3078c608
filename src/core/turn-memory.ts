// The primary's memory for the transient arrays of its write turns (staged ILP reads, a group's concatenated
// rows, order keys, permutations, gathered columns), reused from one turn to the next instead of allocated
// fresh per commit (scratch-memory.ts says why that matters). A bump allocator over one kept buffer, used
// only inside scopes: a scope frees what its work took, so the outermost one (a write turn) frees everything.
// Invariants: every view handed out and not yet freed is disjoint from every other; the live views in the kept
// buffer all lie below `usedBytes`; the kept buffer is never larger than `bytesMax` (a request that does not fit
// gets memory of its own); after `idleMs` without a use nothing is kept.
import { assert } from './assert.js';
import { IdleKeptBuffer, type IdleKeptBufferOptions } from './idle-kept-buffer.js';
import { realIdleTimers } from './idle-check.js';
import { turnMemoryBytesMax, turnMemoryIdleMs } from './limits.js';
import type { ScratchMemory } from './scratch-memory.js';

export type TurnMemoryOptions = IdleKeptBufferOptions;

/** Views start at multiples of this, so Float64Array and Int32Array views fit on them. */
const VIEW_ALIGNMENT_BYTES = 8;

function aligned(position: number): number {
  return Math.ceil(position / VIEW_ALIGNMENT_BYTES) * VIEW_ALIGNMENT_BYTES;
}

export class TurnMemory implements ScratchMemory {
  private readonly keeper: IdleKeptBuffer;
  private usedBytes = 0;
  /** Scopes running now: memory is handed out only inside one, so nothing taken outlives every scope. */
  private depth = 0;

  constructor(options: TurnMemoryOptions) {
    this.keeper = new IdleKeptBuffer(options);
  }

  /**
   * Runs `work` (synchronous); the views it took are free again once it returns or throws, and the views taken
   * before it stay valid. After the kept buffer was replaced inside `work`, the old one holds every earlier view
   * and the new one none of them, so going back to the old mark reuses only memory `work` took.
   */
  scope<T>(work: () => T): T {
    const mark = this.usedBytes;
    this.depth++;
    try {
      return work();
    } finally {
      this.depth--;
      this.usedBytes = mark;
    }
  }

  /**
   * `byteCount` bytes at an 8-aligned offset of their buffer, valid until the turn or scope that took them ends.
   * When the kept buffer is full one of the bound's size replaces it (idle-kept-buffer.ts; the views already
   * taken keep the old one alive); past the bound, memory of its own, not kept.
   */
  bytes(byteCount: number): Buffer {
    assert(Number.isSafeInteger(byteCount) && byteCount >= 0, 'turn memory is asked for in whole, non-negative bytes');
    assert(this.depth > 0, 'turn memory is taken inside a scope, which frees it');
    const start = aligned(this.usedBytes);
    if (start + byteCount <= this.keeper.keptBytes) {
      this.usedBytes = start + byteCount;
      const view = this.keeper.atLeast(start + byteCount)?.subarray(start, start + byteCount);
      assert(view !== undefined && view.byteOffset % VIEW_ALIGNMENT_BYTES === 0, 'a turn memory view is aligned within the kept buffer');
      return view;
    }
    // A kept buffer that cannot grow any more holds live views from 0 on: a new view there would overwrite them.
    if (byteCount > this.keeper.bytesMax || this.keeper.keptBytes === this.keeper.bytesMax) return Buffer.allocUnsafeSlow(byteCount);
    const grown = this.keeper.atLeast(this.keeper.bytesMax);
    assert(grown !== undefined && grown.length >= byteCount, 'kept memory within the bound is at least what was asked for');
    this.usedBytes = byteCount;
    return grown.subarray(0, byteCount);
  }

  float64(count: number): Float64Array {
    const bytes = this.bytes(count * Float64Array.BYTES_PER_ELEMENT);
    return new Float64Array(bytes.buffer, bytes.byteOffset, count);
  }

  int32(count: number): Int32Array {
    const bytes = this.bytes(count * Int32Array.BYTES_PER_ELEMENT);
    return new Int32Array(bytes.buffer, bytes.byteOffset, count);
  }

  /** Bytes kept for the next turn (the next outermost scope). */
  get keptBytes(): number {
    return this.keeper.keptBytes;
  }
}

/** The engine's memory: real clock, unref'd timers. */
export function engineTurnMemory(): TurnMemory {
  return new TurnMemory({ bytesMax: turnMemoryBytesMax, idleMs: turnMemoryIdleMs, ...realIdleTimers });
}
