// How the scanned rows of a parallel query are cut and handed out. The rows are cut into morsels, contiguous row
// ranges in table order, largest first, and every participant (the pool threads and, for a short query, the
// calling thread) claims the next unclaimed morsel from a shared counter until none is left. A participant that
// starts late (a thread's wake-up on a busy machine takes milliseconds), runs slower or is preempted simply claims
// fewer, so all finish within about one small morsel of each other, where fixed equal shares finished as late as
// the slowest one. The cuts follow guided self-scheduling: each morsel is a fixed fraction of the rows not yet cut,
// so the first ones are large (few plan opens) and the last ones small (a short tail). The cuts depend only on the
// scanned ranges and the participant count, so a text run again meets the same morsels and reopens their plans.
import type { PartitionRows } from '../../storage/table-reader.js';
import type { ColumnBatch } from '../exec/batch.js';
import { assert } from '../../core/assert.js';

/** What one participant computed over one morsel. */
export interface MorselPart {
  readonly morselIndex: number;
  readonly batches: readonly ColumnBatch[];
}

/**
 * Each morsel takes this share of the rows not yet cut, per participant: with 2 participants a quarter of the
 * rest, so the first two morsels hold half the rows and the last ones shrink toward MORSEL_ROWS_MIN.
 */
const MORSEL_SHARE_PER_PARTICIPANT = 0.5;
/**
 * Smallest morsel, in rows: two full scan batches, so a morsel's plan open and partial result stay small beside
 * its scan (a cheap filter reads 2^17 rows in about 0.3 ms), and a query's tail is that short.
 */
export const MORSEL_ROWS_MIN = 131_072;

/** Morsels over `ranges` for `participantCount` participants, in table order, each at least `rowsMin` rows but the last. */
export function splitMorsels(ranges: readonly PartitionRows[], participantCount: number, rowsMin = MORSEL_ROWS_MIN): PartitionRows[][] {
  assert(Number.isInteger(participantCount) && participantCount >= 1 && rowsMin >= 1, 'morsels are cut for at least one participant');
  let remaining = 0;
  for (const range of ranges) remaining += range.hi - range.lo;
  const sizes: number[] = [];
  while (remaining > 0) {
    const size = Math.min(remaining, Math.max(rowsMin, Math.ceil((remaining * MORSEL_SHARE_PER_PARTICIPANT) / participantCount)));
    sizes.push(size);
    remaining -= size;
  }
  return cutRanges(ranges, sizes);
}

/** Slices of about equal row counts of `ranges` (in table order); one slice may span several partitions. */
export function splitRows(ranges: readonly PartitionRows[], sliceCount: number): PartitionRows[][] {
  assert(Number.isInteger(sliceCount) && sliceCount >= 1, 'rows split into at least one slice');
  let total = 0;
  for (const range of ranges) total += range.hi - range.lo;
  const target = Math.max(1, Math.ceil(total / sliceCount));
  const sizes: number[] = [];
  for (let left = total; left > 0; left -= Math.min(left, target)) sizes.push(Math.min(left, target));
  return cutRanges(ranges, sizes);
}

/** `ranges` cut into consecutive pieces of `sizes` rows (which sum to the ranges' rows); a piece may span partitions. */
function cutRanges(ranges: readonly PartitionRows[], sizes: readonly number[]): PartitionRows[][] {
  const pieces: PartitionRows[][] = [];
  let current: PartitionRows[] = [];
  let filled = 0;
  for (const range of ranges) {
    let lo = range.lo;
    while (lo < range.hi) {
      const target = sizes[pieces.length];
      assert(target !== undefined, 'the piece sizes cover every row of the ranges');
      const hi = Math.min(range.hi, lo + target - filled);
      current.push({ partitionIndex: range.partitionIndex, lo, hi });
      filled += hi - lo;
      lo = hi;
      if (filled >= target) {
        pieces.push(current);
        current = [];
        filled = 0;
      }
    }
  }
  assert(current.length === 0 && pieces.length === sizes.length, 'every piece is filled to its size');
  return pieces;
}

/**
 * Claims morsels from the shared counter (Int32 `counterIndex` of `counters`) until none is left and runs each;
 * the parts come back in the order claimed. `run` throws to stop (a failure, a cancellation).
 */
export function claimMorsels(counters: Int32Array, counterIndex: number, morselCount: number, run: (morselIndex: number) => readonly ColumnBatch[]): MorselPart[] {
  const parts: MorselPart[] = [];
  for (let morselIndex = Atomics.add(counters, counterIndex, 1); morselIndex < morselCount; morselIndex = Atomics.add(counters, counterIndex, 1)) {
    parts.push({ morselIndex, batches: run(morselIndex) });
  }
  return parts;
}

/** The batches of every morsel in morsel (table) order; asserts that each morsel was run exactly once. */
export function batchesInMorselOrder(parts: readonly MorselPart[], morselCount: number): ColumnBatch[] {
  const byIndex = new Array<readonly ColumnBatch[] | undefined>(morselCount);
  for (const part of parts) {
    assert(part.morselIndex >= 0 && part.morselIndex < morselCount && byIndex[part.morselIndex] === undefined, 'each morsel is claimed by one participant');
    byIndex[part.morselIndex] = part.batches;
  }
  const batches: ColumnBatch[] = [];
  for (let k = 0; k < morselCount; k++) {
    const morsel = byIndex[k];
    assert(morsel !== undefined, 'every morsel of a finished query was run');
    batches.push(...morsel);
  }
  return batches;
}
