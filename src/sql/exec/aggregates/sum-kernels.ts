// sum, avg, ksum (Kahan) and nsum (Neumaier) over numeric vectors. The ungrouped sums run four accumulators
// so the loop is bound by memory, not by the latency of one floating-point add chain. A group with no
// non-null value yields NULL.
import type { ValueType } from '../../../types/column-type.js';
import type { NumericVectorData, Vector } from '../batch.js';
import type { AggregateKernel } from './aggregate-kernel.js';
import { INT_NULL, growFloat64, numericValue } from './aggregate-kernel.js';

/** [sum, count] of the last ungrouped pass; module-level so the hot path returns without allocating. */
const partial = new Float64Array(2);

/**
 * Sum of a vector whose nulls are NaN (DOUBLE, FLOAT, LONG, TIMESTAMP, DATE; BYTE/SHORT have none). Most
 * vectors hold no null: a plain four-accumulator pass (no per-value test) is tried first, and only a NaN
 * result, meaning some value was null, pays for the pass that skips them.
 */
function sumNaNNullable(data: NumericVectorData, rowCount: number): void {
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
  if (total === total) {
    partial[0] = total;
    partial[1] = rowCount;
    return;
  }
  sumSkippingNaN(data, rowCount);
}

/** The null-aware pass: NaN values are skipped and not counted. (An infinite sum of ±Inf inputs lands here too.) */
function sumSkippingNaN(data: NumericVectorData, rowCount: number): void {
  let s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  let count = 0;
  let row = 0;
  for (; row + 4 <= rowCount; row += 4) {
    const a = data[row], b = data[row + 1], c = data[row + 2], d = data[row + 3];
    if (a === a) { s0 += a; count++; }
    if (b === b) { s1 += b; count++; }
    if (c === c) { s2 += c; count++; }
    if (d === d) { s3 += d; count++; }
  }
  for (; row < rowCount; row++) {
    const a = data[row];
    if (a === a) { s0 += a; count++; }
  }
  partial[0] = s0 + s1 + s2 + s3;
  partial[1] = count;
}

/** Sum of an INT vector (null = INT_NULL); integer adds are exact in doubles up to 2^53. */
function sumInt32(data: Int32Array, rowCount: number): void {
  let s0 = 0, s1 = 0;
  let count = 0;
  let row = 0;
  for (; row + 2 <= rowCount; row += 2) {
    const a = data[row], b = data[row + 1];
    if (a !== INT_NULL) { s0 += a; count++; }
    if (b !== INT_NULL) { s1 += b; count++; }
  }
  for (; row < rowCount; row++) {
    const a = data[row];
    if (a !== INT_NULL) { s0 += a; count++; }
  }
  partial[0] = s0 + s1;
  partial[1] = count;
}

function sumGroupedNaNNullable(data: NumericVectorData, groups: Int32Array, rowCount: number, sums: Float64Array, counts: Float64Array): void {
  for (let row = 0; row < rowCount; row++) {
    const value = data[row];
    if (value !== value) continue;
    const group = groups[row];
    sums[group] = sums[group] + value;
    counts[group] = counts[group] + 1;
  }
}

function sumGroupedInt32(data: Int32Array, groups: Int32Array, rowCount: number, sums: Float64Array, counts: Float64Array): void {
  for (let row = 0; row < rowCount; row++) {
    const value = data[row];
    if (value === INT_NULL) continue;
    const group = groups[row];
    sums[group] = sums[group] + value;
    counts[group] = counts[group] + 1;
  }
}

export class SumAvgKernel implements AggregateKernel {
  private sums: Float64Array = new Float64Array(16);
  private counts: Float64Array = new Float64Array(16);
  constructor(private readonly resultType: ValueType, private readonly average: boolean) {}

  update(arg: Vector | undefined, rowCount: number, groups: Int32Array | undefined, groupCount: number): void {
    if (arg === undefined) return;
    this.sums = growFloat64(this.sums, groupCount, 0);
    this.counts = growFloat64(this.counts, groupCount, 0);
    const integer = arg.type === 'INT';
    if (arg.type === 'IPV4' || arg.type === 'CHAR' || arg.type === 'BOOLEAN') {
      this.updateSlow(arg, rowCount, groups);
    } else if (groups !== undefined) {
      if (integer) sumGroupedInt32(arg.data as Int32Array, groups, rowCount, this.sums, this.counts);
      else sumGroupedNaNNullable(arg.data as NumericVectorData, groups, rowCount, this.sums, this.counts);
    } else {
      if (integer) sumInt32(arg.data as Int32Array, rowCount);
      else sumNaNNullable(arg.data as NumericVectorData, rowCount);
      this.sums[0] = this.sums[0] + partial[0];
      this.counts[0] = this.counts[0] + partial[1];
    }
  }

  private updateSlow(arg: Vector, rowCount: number, groups: Int32Array | undefined): void {
    for (let row = 0; row < rowCount; row++) {
      const value = numericValue(arg, row);
      if (value !== value) continue;
      const group = groups === undefined ? 0 : groups[row];
      this.sums[group] = this.sums[group] + value;
      this.counts[group] = this.counts[group] + 1;
    }
  }

  result(groupCount: number): Vector {
    const out = new Float64Array(groupCount);
    for (let group = 0; group < groupCount; group++) {
      const count = this.counts[group] ?? 0;
      const sum = this.sums[group];
      out[group] = count === 0 ? NaN : this.average ? sum / count : sum;
    }
    return { type: this.resultType, data: out };
  }

  nonNullCounts(groupCount: number): Vector {
    return { type: 'LONG', data: growFloat64(this.counts, groupCount, 0).slice(0, groupCount) };
  }

  /**
   * The per-group sums and non-null counts, grown to hold `groupCount` groups, for a caller that folds rows into
   * them itself (group-by-dense-sum.ts assigns groups and sums in one pass), as sumGroupedNaNNullable would.
   */
  accumulators(groupCount: number): { readonly sums: Float64Array; readonly counts: Float64Array } {
    this.sums = growFloat64(this.sums, groupCount, 0);
    this.counts = growFloat64(this.counts, groupCount, 0);
    return { sums: this.sums, counts: this.counts };
  }
}

/**
 * Compensated sums: Kahan keeps the low-order bits lost by each add in `compensation`; Neumaier also handles
 * an addend larger than the running sum. Both are DOUBLE and NULL for a group without values.
 */
export class CompensatedSumKernel implements AggregateKernel {
  private sums: Float64Array = new Float64Array(16);
  private compensation: Float64Array = new Float64Array(16);
  private counts: Float64Array = new Float64Array(16);
  constructor(private readonly neumaier: boolean) {}

  update(arg: Vector | undefined, rowCount: number, groups: Int32Array | undefined, groupCount: number): void {
    if (arg === undefined) return;
    this.sums = growFloat64(this.sums, groupCount, 0);
    this.compensation = growFloat64(this.compensation, groupCount, 0);
    this.counts = growFloat64(this.counts, groupCount, 0);
    const sums = this.sums, compensation = this.compensation, counts = this.counts;
    for (let row = 0; row < rowCount; row++) {
      const value = numericValue(arg, row);
      if (value !== value) continue;
      const group = groups === undefined ? 0 : groups[row];
      const sum = sums[group];
      if (this.neumaier) {
        const total = sum + value;
        compensation[group] = compensation[group] + (Math.abs(sum) >= Math.abs(value) ? (sum - total) + value : (value - total) + sum);
        sums[group] = total;
      } else {
        const adjusted = value - compensation[group];
        const total = sum + adjusted;
        compensation[group] = (total - sum) - adjusted;
        sums[group] = total;
      }
      counts[group] = counts[group] + 1;
    }
  }

  result(groupCount: number): Vector {
    const out = new Float64Array(groupCount);
    for (let group = 0; group < groupCount; group++) {
      const count = this.counts[group] ?? 0;
      const sum = this.sums[group];
      out[group] = count === 0 ? NaN : this.neumaier ? sum + this.compensation[group] : sum;
    }
    return { type: 'DOUBLE', data: out };
  }
}
