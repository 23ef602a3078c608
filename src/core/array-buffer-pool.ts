// ArrayBuffers handed out by size class (powers of two) and taken back for the next user, so a process that
// fills short-lived buffers request after request (ILP column builders) does not allocate fresh external memory
// each time: V8 counts external memory allocated since its last full collection against the old generation's
// limit, and a buffer that outlives a scavenge (a request spans several) is freed only by a full collection, so
// fresh buffers per request ran a full collection every few requests. Invariants: a kept buffer is in no user's
// hands; the kept bytes never exceed `bytesMax`; after `idleMs` without a take nothing is kept.
import { assert } from './assert.js';
import { IdleCheck, type KeptMemoryOptions } from './idle-check.js';

export type ArrayBufferPoolOptions = KeptMemoryOptions;

/** The smallest size class: smaller requests get this much (the pool is for buffers of many rows). */
const CLASS_BYTES_MIN = 4096;

/** The size class of a request for `bytes`: the power of two at or above it, at least CLASS_BYTES_MIN. */
export function sizeClassBytes(bytes: number): number {
  assert(Number.isSafeInteger(bytes) && bytes >= 0, 'pooled memory is asked for in whole, non-negative bytes');
  let size = CLASS_BYTES_MIN;
  while (size < bytes) size *= 2;
  return size;
}

export class ArrayBufferPool {
  /** Kept buffers by size class. */
  private readonly kept = new Map<number, ArrayBuffer[]>();
  private keptTotal = 0;
  private readonly idle: IdleCheck;

  constructor(private readonly options: ArrayBufferPoolOptions) {
    assert(options.bytesMax > 0, 'a buffer pool has a positive bound');
    this.idle = new IdleCheck(options.idleMs, options, () => this.keptTotal > 0, () => this.clear());
  }

  /** Bytes kept for later takes. */
  get keptBytes(): number {
    return this.keptTotal;
  }

  /** A buffer of at least `bytes` (exactly its size class), kept or new; its contents are arbitrary. */
  take(bytes: number): ArrayBuffer {
    const size = sizeClassBytes(bytes);
    this.idle.markUse();
    const buffer = this.kept.get(size)?.pop();
    if (buffer === undefined) return new ArrayBuffer(size);
    this.keptTotal -= size;
    return buffer;
  }

  /**
   * Takes a buffer back; the caller holds no view of it afterwards. Buffers not of a size class (an empty
   * placeholder, one allocated elsewhere, a shared one) and buffers past the bound are left to the collector.
   */
  give(buffer: ArrayBufferLike): void {
    const size = buffer.byteLength;
    if (!(buffer instanceof ArrayBuffer) || size < CLASS_BYTES_MIN || (size & (size - 1)) !== 0 || this.keptTotal + size > this.options.bytesMax) return;
    const list = this.kept.get(size) ?? [];
    assert(!list.includes(buffer), 'a buffer is given back once per take');
    list.push(buffer);
    this.kept.set(size, list);
    this.keptTotal += size;
    this.idle.arm();
  }

  private clear(): void {
    this.kept.clear();
    this.keptTotal = 0;
  }
}
