// count(*), count(x) and count_distinct(x) / count(DISTINCT x). Counts are LONG and 0 for a group that saw
// no (non-null) value. count(*) without groups adds whole batches; the per-row loops are standalone functions.
import type { Vector } from '../batch.js';
import type { AggregateKernel } from './aggregate-kernel.js';
import { growFloat64, isNullAt, plainValue } from './aggregate-kernel.js';

function countRowsGrouped(counts: Float64Array, groups: Int32Array, rowCount: number): void {
  for (let row = 0; row < rowCount; row++) {
    const group = groups[row];
    counts[group] = counts[group] + 1;
  }
}

/** Floating-point layouts (DOUBLE, FLOAT, and 64-bit values as numbers): null is NaN. One typed loop, no getter per row. */
function countNotNaN(counts: Float64Array, data: Float64Array | Float32Array, groups: Int32Array | undefined, rowCount: number): void {
  if (groups === undefined) {
    counts[0] = counts[0] + (hasNaN(data, rowCount) ? countNotNaNUngrouped(data, rowCount) : rowCount);
    return;
  }
  for (let row = 0; row < rowCount; row++) {
    const value = data[row];
    if (value !== value) continue;
    const group = groups[row];
    counts[group] = counts[group] + 1;
  }
}

/**
 * Whether any of the values is NaN: a NaN makes the sum NaN whatever the other values are (infinities of both
 * signs too, which then pay for the counting pass). Four accumulators keep the pass bound by memory; a compare
 * and count per value ran at a third of that speed.
 */
function hasNaN(data: Float64Array | Float32Array, rowCount: number): boolean {
  let a0 = 0, a1 = 0, a2 = 0, a3 = 0;
  let at = 0;
  for (; at + 4 <= rowCount; at += 4) {
    a0 += data[at];
    a1 += data[at + 1];
    a2 += data[at + 2];
    a3 += data[at + 3];
  }
  for (; at < rowCount; at++) a0 += data[at];
  const total = a0 + a1 + a2 + a3;
  return total !== total;
}

function countNotNaNUngrouped(data: Float64Array | Float32Array, rowCount: number): number {
  let count = 0;
  for (let row = 0; row < rowCount; row++) {
    const value = data[row];
    if (value === value) count++;
  }
  return count;
}

/** Exact 64-bit values, read as 32-bit word pairs (no bigint per row): null is Long.MIN_VALUE, words (0, -2^31). */
function countNonNullInt64(counts: Float64Array, exact: BigInt64Array, groups: Int32Array | undefined, rowCount: number): void {
  const words = new Int32Array(exact.buffer, exact.byteOffset, rowCount * 2);
  if (groups === undefined) {
    let nulls = 0;
    // The high word is tested first: it is rarely Long.MIN_VALUE's, so the branch is predictable.
    for (let row = 0; row < rowCount; row++) {
      if (words[2 * row + 1] === -2147483648 && words[2 * row] === 0) nulls++;
    }
    counts[0] = counts[0] + rowCount - nulls;
    return;
  }
  for (let row = 0; row < rowCount; row++) {
    if (words[2 * row + 1] === -2147483648 && words[2 * row] === 0) continue;
    const group = groups === undefined ? 0 : groups[row];
    counts[group] = counts[group] + 1;
  }
}

function countNonNull(counts: Float64Array, arg: Vector, groups: Int32Array | undefined, rowCount: number): void {
  // 64-bit vectors from storage convert to numbers only when `data` is read: counting reads the exact words.
  if (arg.exact !== undefined) {
    countNonNullInt64(counts, arg.exact, groups, rowCount);
    return;
  }
  const data = arg.data;
  if (data instanceof Float64Array || data instanceof Float32Array) {
    countNotNaN(counts, data, groups, rowCount);
    return;
  }
  for (let row = 0; row < rowCount; row++) {
    if (isNullAt(arg, row)) continue;
    const group = groups === undefined ? 0 : groups[row];
    counts[group] = counts[group] + 1;
  }
}

export class CountKernel implements AggregateKernel {
  private counts: Float64Array = new Float64Array(16);
  constructor(private readonly nonNullOnly: boolean) {}

  update(arg: Vector | undefined, rowCount: number, groups: Int32Array | undefined, groupCount: number): void {
    this.counts = growFloat64(this.counts, groupCount, 0);
    if (this.nonNullOnly && arg !== undefined) {
      countNonNull(this.counts, arg, groups, rowCount);
    } else if (groups === undefined) {
      this.counts[0] = this.counts[0] + rowCount;
    } else {
      countRowsGrouped(this.counts, groups, rowCount);
    }
  }

  result(groupCount: number): Vector {
    return { type: 'LONG', data: growFloat64(this.counts, groupCount, 0).slice(0, groupCount) };
  }
}

/** Distinct non-null values per group; symbols count by text so keys from different dictionaries agree. */
export class CountDistinctKernel implements AggregateKernel {
  private readonly seen: (Set<unknown> | undefined)[] = [];

  update(arg: Vector | undefined, rowCount: number, groups: Int32Array | undefined): void {
    if (arg === undefined) return;
    const seen = this.seen;
    for (let row = 0; row < rowCount; row++) {
      const value = plainValue(arg, row);
      if (value === null) continue;
      const group = groups === undefined ? 0 : groups[row];
      let set = seen[group];
      if (set === undefined) {
        set = new Set();
        seen[group] = set;
      }
      set.add(value);
    }
  }

  result(groupCount: number): Vector {
    const out = new Float64Array(groupCount);
    for (let group = 0; group < groupCount; group++) out[group] = this.seen[group]?.size ?? 0;
    return { type: 'LONG', data: out };
  }
}
