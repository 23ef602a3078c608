// The segment encoder thread's buffer for one segment's raw bytes, kept for the next segment while segments
// keep coming and released once they stop. A fresh buffer per segment cost a page fault per 4 KiB while the
// captured bytes were read into it, and external-memory garbage; a kept one that never shrank held up to a
// full part of memory in every idle primary. Invariants: the kept buffer is never larger than `bytesMax`, and
// after `idleMs` without a request nothing is kept.
import { IdleKeptBuffer, type IdleKeptBufferOptions } from '../core/idle-kept-buffer.js';
import { realIdleTimers } from '../core/idle-check.js';
import { PART_BYTES_MAX } from './capture-parts.js';

/** A whole part (PART_BYTES_MAX raw bytes) and its header fit: a busy primary's parts all reuse the buffer. */
export const RAW_SCRATCH_BYTES_MAX = PART_BYTES_MAX + 1024 * 1024;
/** A minute without a segment is an idle primary, which gives the memory back; ingest in periodic batches keeps it (core/limits.ts turnMemoryIdleMs). */
export const RAW_SCRATCH_IDLE_MS = 60_000;

export type RawScratchOptions = IdleKeptBufferOptions;

export class RawScratch {
  private readonly keeper: IdleKeptBuffer;

  constructor(options: RawScratchOptions) {
    this.keeper = new IdleKeptBuffer(options);
  }

  /** `bytes` of writable memory, valid until the next call; past the bound a buffer of its own, not kept. */
  take(bytes: number): Buffer {
    const kept = this.keeper.atLeast(bytes);
    return kept === undefined ? Buffer.allocUnsafeSlow(bytes) : kept.subarray(0, bytes);
  }

  /** Bytes kept for the next segment. */
  get keptBytes(): number {
    return this.keeper.keptBytes;
  }
}

/** The encoder thread's scratch: real clock, unref'd timers. */
export function encoderRawScratch(): RawScratch {
  return new RawScratch({ bytesMax: RAW_SCRATCH_BYTES_MAX, idleMs: RAW_SCRATCH_IDLE_MS, ...realIdleTimers });
}
