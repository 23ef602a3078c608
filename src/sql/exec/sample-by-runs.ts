// Cuts timestamp-ordered batches into runs: maximal row ranges [lo, hi) whose timestamps share one SAMPLE BY
// bucket. Each run costs one bucketOf/nextBucket call; its end is found by a galloping binary search when the
// input is a table scan (timestamps ascend), or by a linear walk when the order is only promised (a subquery's
// TIMESTAMP(col)). Buckets are numbered as slots in order of first appearance; slot ids are stable across
// batches, so aggregate kernels can accumulate per slot. Null timestamps (possible only in unordered input) are
// dropped before cutting.
import type { ColumnBatch } from './batch.js';
import type { Sampler } from './sample-by-sampler.js';
import { gatherBatch } from './vector-ops.js';
import { assert } from '../../core/assert.js';

export class SampleRuns {
  /** Runs of the last batch cut. */
  runCount = 0;
  runLo: Int32Array = new Int32Array(64);
  runHi: Int32Array = new Int32Array(64);
  runSlot: Int32Array = new Int32Array(64);
  /** Distinct buckets seen so far. */
  slotCount = 0;
  private starts: Float64Array = new Float64Array(64);
  private lastStart = Number.NaN;
  private lastSlot = -1;
  private maxStart = Number.NEGATIVE_INFINITY;
  /** Bucket start → slot, consulted only when unordered input returns to an earlier bucket. */
  private readonly revisits = new Map<number, number>();
  private rowSlotBuffer: Int32Array = new Int32Array(0);

  constructor(private readonly ordered: boolean) {}

  /** The first non-null timestamp of a batch (column 0), NaN when every row's is null. */
  static firstTimestamp(batch: ColumnBatch): number {
    const exact = batch.vectors[0]?.exact;
    if (exact !== undefined && batch.rowCount > 0 && exact[0] !== INT64_NULL) return Number(exact[0]);
    const data = batch.vectors[0]?.data as Float64Array;
    for (let row = 0; row < batch.rowCount; row++) {
      const ts = data[row];
      if (ts === ts) return ts;
    }
    return Number.NaN;
  }

  /** Cuts `batch` into runs (runLo/runHi/runSlot); returns the batch the runs index (null timestamps removed). */
  cut(batch: ColumnBatch, sampler: Sampler): ColumnBatch {
    const clean = this.ordered ? batch : withoutNullTimestamps(batch);
    const rowCount = clean.rowCount;
    const exact = clean.vectors[0]?.exact;
    // A scan's timestamps are exact 64-bit views over the column file: the search reads the few it probes
    // straight from those words rather than converting the whole column to numbers.
    if (this.ordered && exact !== undefined) {
      this.cutOrderedWords(new Int32Array(exact.buffer, exact.byteOffset, rowCount * 2), rowCount, sampler);
      return clean;
    }
    const timestamps = clean.vectors[0]?.data as Float64Array;
    assert(timestamps instanceof Float64Array && timestamps.length >= rowCount, 'SAMPLE BY input column 0 is a TIMESTAMP vector covering the batch');
    this.runCount = 0;
    let lo = 0;
    while (lo < rowCount) {
      const start = sampler.bucketOf(timestamps[lo]);
      const end = sampler.nextBucket(start);
      const hi = this.ordered ? gallopEnd(timestamps, lo + 1, rowCount, end) : walkEnd(timestamps, lo + 1, rowCount, start, end);
      this.addRun(lo, hi, this.slotOf(start));
      lo = hi;
    }
    return clean;
  }

  private cutOrderedWords(words: Int32Array, rowCount: number, sampler: Sampler): void {
    this.runCount = 0;
    let lo = 0;
    while (lo < rowCount) {
      const start = sampler.bucketOf(microsAt(words, lo));
      const hi = gallopEndWords(words, lo + 1, rowCount, sampler.nextBucket(start));
      this.addRun(lo, hi, this.slotOf(start));
      lo = hi;
    }
  }

  /** Bucket start of each slot, indexed by slot. */
  slotStarts(): Float64Array {
    return this.starts.subarray(0, this.slotCount);
  }

  /** Slots in ascending bucket order (creation order unless unordered input revisited an earlier bucket). */
  slotOrder(): Int32Array {
    const order = new Int32Array(this.slotCount);
    for (let slot = 0; slot < this.slotCount; slot++) order[slot] = slot;
    if (this.revisits.size > 0 || !this.ascending()) {
      const starts = this.starts;
      order.sort((a, b) => starts[a] - starts[b]);
    }
    return order;
  }

  /** The slot of every row of the last batch cut (for kernels that fold rows by group id). */
  rowSlots(rowCount: number): Int32Array {
    if (this.rowSlotBuffer.length < rowCount) this.rowSlotBuffer = new Int32Array(rowCount);
    const out = this.rowSlotBuffer;
    for (let k = 0; k < this.runCount; k++) out.fill(this.runSlot[k], this.runLo[k], this.runHi[k]);
    return out;
  }

  private ascending(): boolean {
    for (let slot = 1; slot < this.slotCount; slot++) {
      if (this.starts[slot] < this.starts[slot - 1]) return false;
    }
    return true;
  }

  private slotOf(start: number): number {
    if (start === this.lastStart) return this.lastSlot;
    let slot: number;
    if (start > this.maxStart) {
      slot = this.newSlot(start);
      this.maxStart = start;
    } else {
      slot = this.revisits.get(start) ?? this.newSlot(start);
    }
    this.lastStart = start;
    this.lastSlot = slot;
    return slot;
  }

  private newSlot(start: number): number {
    if (this.slotCount === this.starts.length) {
      const grown = new Float64Array(this.starts.length * 2);
      grown.set(this.starts);
      this.starts = grown;
    }
    this.starts[this.slotCount] = start;
    // Ordered input never returns to an earlier bucket, so only unordered input pays for the map.
    if (!this.ordered) this.revisits.set(start, this.slotCount);
    return this.slotCount++;
  }

  private addRun(lo: number, hi: number, slot: number): void {
    if (this.runCount === this.runLo.length) {
      this.runLo = grown(this.runLo);
      this.runHi = grown(this.runHi);
      this.runSlot = grown(this.runSlot);
    }
    this.runLo[this.runCount] = lo;
    this.runHi[this.runCount] = hi;
    this.runSlot[this.runCount] = slot;
    this.runCount++;
  }
}

function grown(array: Int32Array): Int32Array {
  const next = new Int32Array(array.length * 2);
  next.set(array);
  return next;
}

/**
 * First index in [from, to) whose timestamp is >= end, for ascending timestamps. Gallops (1, 2, 4, ... rows)
 * before bisecting, so a short run costs a few probes and a long one O(log length).
 */
function gallopEnd(timestamps: Float64Array, from: number, to: number, end: number): number {
  let lo = from;
  let step = 1;
  let hi = from;
  while (hi < to && timestamps[hi] < end) {
    lo = hi + 1;
    hi = from + step;
    step *= 2;
  }
  if (hi > to) hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (timestamps[mid] < end) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const INT64_NULL = -(2n ** 63n);

/** The little-endian int64 at `index` of a words view, as a number (exact for timestamps, |µs| < 2^53). */
function microsAt(words: Int32Array, index: number): number {
  return words[2 * index + 1] * 4294967296 + (words[2 * index] >>> 0);
}

/** gallopEnd over int64 words. */
function gallopEndWords(words: Int32Array, from: number, to: number, end: number): number {
  let lo = from;
  let step = 1;
  let hi = from;
  while (hi < to && microsAt(words, hi) < end) {
    lo = hi + 1;
    hi = from + step;
    step *= 2;
  }
  if (hi > to) hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (microsAt(words, mid) < end) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index in [from, to) whose timestamp leaves [start, end). */
function walkEnd(timestamps: Float64Array, from: number, to: number, start: number, end: number): number {
  let row = from;
  while (row < to) {
    const ts = timestamps[row];
    if (ts < start || ts >= end) break;
    row++;
  }
  return row;
}

function withoutNullTimestamps(batch: ColumnBatch): ColumnBatch {
  const timestamps = batch.vectors[0]?.data as Float64Array;
  let nulls = 0;
  for (let row = 0; row < batch.rowCount; row++) if (timestamps[row] !== timestamps[row]) nulls++;
  if (nulls === 0) return batch;
  const selection = new Int32Array(batch.rowCount - nulls);
  let count = 0;
  for (let row = 0; row < batch.rowCount; row++) if (timestamps[row] === timestamps[row]) selection[count++] = row;
  return gatherBatch(batch, selection, count);
}
