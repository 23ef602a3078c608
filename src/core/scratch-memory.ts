// Where a function that builds a transient array gets its memory: fresh allocations by default, or a caller's
// reused memory (turn-memory.ts) when the caller knows how long the result lives. On the machines svc is
// measured on, the first write to a fresh page costs about 15 µs (a page fault), forty times the cost of
// writing the page once it is mapped, so large per-commit arrays taken fresh each time cost more than the
// work done with them. Invariant: what a ScratchMemory hands out is writable, of exactly the asked length,
// and `bytes` views start at a multiple of 8 of their buffer when they come from reused memory.

export interface ScratchMemory {
  /** `byteCount` bytes; contents are arbitrary. */
  bytes(byteCount: number): Buffer;
  /** `count` doubles; contents are arbitrary. */
  float64(count: number): Float64Array;
  /** `count` int32 values; contents are arbitrary. */
  int32(count: number): Int32Array;
}

/** Fresh memory for every request: for results that outlive the caller's turn, and for callers without reused memory. */
export const freshMemory: ScratchMemory = {
  bytes: (byteCount) => Buffer.allocUnsafe(byteCount),
  float64: (count) => new Float64Array(count),
  int32: (count) => new Int32Array(count),
};
