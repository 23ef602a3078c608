// The cancellation flags a parallel query shares with its threads: Int32 slots of a few SharedArrayBuffers made
// once per process, one slot per query in flight, zeroed when taken. With a fresh SharedArrayBuffer per query,
// postMessage grew slower the more of them had been made and not yet collected (measured on one thread: 65 µs
// per message over the first 200, 250 µs over the fourth 200, against 35 µs with one buffer reused).
import { assert } from '../../core/assert.js';

/** Slots per shared buffer; another buffer is made when every slot is in use. */
const SLOTS_PER_BUFFER = 256;

export interface CancelFlag {
  readonly buffer: SharedArrayBuffer;
  /** Int32 index of the flag in `buffer`: non-zero once the query is cancelled. */
  readonly index: number;
}

export class CancelFlags {
  private readonly free: CancelFlag[] = [];
  private readonly inUse = new Set<CancelFlag>();

  /** A flag for a query, set to 0; give it back with release once no thread reads it any more. */
  acquire(): CancelFlag {
    if (this.free.length === 0) {
      const buffer = new SharedArrayBuffer(SLOTS_PER_BUFFER * Int32Array.BYTES_PER_ELEMENT);
      for (let index = SLOTS_PER_BUFFER - 1; index >= 0; index--) this.free.push({ buffer, index });
    }
    const flag = this.free.pop() as CancelFlag;
    Atomics.store(new Int32Array(flag.buffer), flag.index, 0);
    this.inUse.add(flag);
    return flag;
  }

  release(flag: CancelFlag): void {
    assert(this.inUse.delete(flag), 'a cancel flag is released once, after it was acquired');
    this.free.push(flag);
  }
}
