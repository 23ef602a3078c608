// Per-bucket statistics of one DOUBLE-valued column gathered in one pass: the sum and count of its non-null
// values, their minimum and maximum. SAMPLE BY aggregates such as avg(x), min(x), max(x), count(x) over the same
// column read that column once through this accumulator instead of once per aggregate (a sum alone reads it
// twice: for the sum and for the count). The results are bit-identical to the per-aggregate kernels of
// sample-by-kernels.ts: the sum keeps their four-lane order within a run, min/max keep the first of equal
// values (so -0 and 0 resolve alike), and null (NaN) rows count for nothing.
import { assert } from '../../core/assert.js';
import { growFloat64 } from './aggregates/aggregate-kernel.js';

export type ColumnStatKind = 'sum' | 'avg' | 'min' | 'max' | 'count_col';

export const COLUMN_STAT_KINDS: ReadonlySet<string> = new Set<ColumnStatKind>(['sum', 'avg', 'min', 'max', 'count_col']);

/** One accumulator slot per bucket (or keyed group); `counts` holds the non-null values seen per slot. */
export class ColumnStats {
  private sums: Float64Array = new Float64Array(64);
  private counts: Float64Array = new Float64Array(64);
  private mins: Float64Array = new Float64Array(64);
  private maxs: Float64Array = new Float64Array(64);

  /** Rows [lo, hi) of `data` belong to `slot`. */
  addRun(data: Float64Array, lo: number, hi: number, slot: number): void {
    assert(lo >= 0 && hi <= data.length && slot >= 0, 'a run lies inside its argument vector');
    this.ensure(slot + 1);
    foldRun(data, lo, hi, RUN_SCRATCH);
    const count = RUN_SCRATCH[1];
    if (count === 0) return;
    const seen = this.counts[slot];
    this.sums[slot] = this.sums[slot] + RUN_SCRATCH[0];
    const min = RUN_SCRATCH[2];
    const max = RUN_SCRATCH[3];
    if (seen === 0 || min < this.mins[slot]) this.mins[slot] = min;
    if (seen === 0 || max > this.maxs[slot]) this.maxs[slot] = max;
    this.counts[slot] = seen + count;
  }

  /** Row r of `data` belongs to slot `groups[r]`. */
  addRows(data: Float64Array, groups: Int32Array, rowCount: number, groupCount: number): void {
    assert(rowCount <= data.length && rowCount <= groups.length, 'grouped rows lie inside their vectors');
    this.ensure(groupCount);
    foldRows(data, groups, rowCount, this.sums, this.counts, this.mins, this.maxs);
  }

  /** The value of aggregate `kind` per slot; NaN (null) where a slot saw no non-null value, except for counts. */
  result(kind: ColumnStatKind, slotCount: number): Float64Array {
    this.ensure(slotCount);
    const out = new Float64Array(slotCount);
    const counts = this.counts;
    const values = kind === 'min' ? this.mins : kind === 'max' ? this.maxs : this.sums;
    for (let slot = 0; slot < slotCount; slot++) {
      const count = counts[slot];
      switch (kind) {
        case 'count_col': out[slot] = count; break;
        case 'avg': out[slot] = count === 0 ? NaN : values[slot] / count; break;
        default: out[slot] = count === 0 ? NaN : values[slot];
      }
    }
    return out;
  }

  private ensure(size: number): void {
    // All four grow together (same length before, same growth rule), so one length check covers them.
    if (this.sums.length >= size) return;
    this.sums = growFloat64(this.sums, size, 0);
    this.counts = growFloat64(this.counts, size, 0);
    this.mins = growFloat64(this.mins, size, 0);
    this.maxs = growFloat64(this.maxs, size, 0);
  }
}

/** [sum, count, min, max] of the last run folded; one per thread, reused so a run allocates nothing. */
const RUN_SCRATCH = new Float64Array(4);

/**
 * Sum, non-null count, min and max of [lo, hi) into `out`. The sum runs in four lanes added up at the end, the
 * order of the per-aggregate sum kernel. min starts at +Infinity and takes a value only when strictly smaller,
 * which picks the same value as starting from the first non-null one (NaN compares false and is skipped).
 */
function foldRun(data: Float64Array, lo: number, hi: number, out: Float64Array): void {
  let s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  let count = 0;
  let min = Infinity;
  let max = -Infinity;
  let i = lo;
  for (; i + 4 <= hi; i += 4) {
    const a = data[i], b = data[i + 1], c = data[i + 2], d = data[i + 3];
    // Mostly all four lie strictly between the min and max so far (a null fails both tests): then only the
    // sums change, and a few well-predicted tests replace twelve.
    if (a > min && a < max && b > min && b < max && c > min && c < max && d > min && d < max) {
      s0 += a; s1 += b; s2 += c; s3 += d;
      count += 4;
      continue;
    }
    if (a === a) { s0 += a; count++; if (a < min) min = a; if (a > max) max = a; }
    if (b === b) { s1 += b; count++; if (b < min) min = b; if (b > max) max = b; }
    if (c === c) { s2 += c; count++; if (c < min) min = c; if (c > max) max = c; }
    if (d === d) { s3 += d; count++; if (d < min) min = d; if (d > max) max = d; }
  }
  for (; i < hi; i++) {
    const a = data[i];
    if (a === a) { s0 += a; count++; if (a < min) min = a; if (a > max) max = a; }
  }
  out[0] = s0 + s1 + s2 + s3;
  out[1] = count;
  out[2] = min;
  out[3] = max;
}

function foldRows(data: Float64Array, groups: Int32Array, rowCount: number, sums: Float64Array, counts: Float64Array, mins: Float64Array, maxs: Float64Array): void {
  for (let row = 0; row < rowCount; row++) {
    const v = data[row];
    if (v !== v) continue;
    const group = groups[row];
    const seen = counts[group];
    sums[group] = sums[group] + v;
    if (seen === 0 || v < mins[group]) mins[group] = v;
    if (seen === 0 || v > maxs[group]) maxs[group] = v;
    counts[group] = seen + 1;
  }
}
