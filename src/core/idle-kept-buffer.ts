// Memory kept for reuse while uses keep coming and given back once they stop: a fresh large buffer per use is
// external memory (page faults while it is filled, and V8 counts it against the old generation's limit until
// a scavenge frees it), while one kept forever would hold its memory in every idle process. Invariants: the
// kept buffer is never larger than `bytesMax`; after `idleMs` without a use nothing is kept.
import { assert } from './assert.js';
import { IdleCheck, type KeptMemoryOptions } from './idle-check.js';
import { hugePageBuffer } from './huge-page-memory.js';

export type IdleKeptBufferOptions = KeptMemoryOptions;

export class IdleKeptBuffer {
  private kept: Buffer = Buffer.allocUnsafeSlow(0);
  private readonly idle: IdleCheck;

  constructor(private readonly options: IdleKeptBufferOptions) {
    assert(options.bytesMax > 0, 'a kept buffer has a positive bound');
    this.idle = new IdleCheck(options.idleMs, options, () => this.kept.length > 0, () => { this.kept = Buffer.allocUnsafeSlow(0); });
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
    this.idle.markUse();
  }

  /**
   * The kept memory, at least `bytes` long, marking a use; past the bound undefined (the caller allocates its
   * own). A shorter kept buffer is replaced, not copied, by one of the bound's size; views of the old one keep it
   * alive until they go. Straight to the bound: a page costs only once it is touched (about 15 µs, a page fault,
   * on the machines svc is measured on), and growing step by step touched every page of each smaller step again.
   * Huge pages where the system grants them: a kept buffer is touched far into its bound (huge-page-memory.ts).
   */
  atLeast(bytes: number): Buffer | undefined {
    assert(Number.isSafeInteger(bytes) && bytes >= 0, 'kept memory is asked for in whole, non-negative bytes');
    this.idle.markUse();
    if (bytes > this.options.bytesMax) return undefined;
    if (this.kept.length < bytes) this.kept = hugePageBuffer(this.options.bytesMax);
    this.idle.arm();
    return this.kept;
  }
}
