// Aggregation for SAMPLE BY. Input arrives in timestamp order, so a non-keyed bucket is a contiguous run of
// rows: the fast kernels here fold a whole run [lo, hi) into one slot with a tight loop over the Float64Array
// (count, sum/avg, min/max, first/last of DOUBLE; count and avg of the 64-bit integer types), or fold rows by a per-row group id
// for keyed sampling. Every other aggregate goes through the general kernels of aggregate-kernels.ts with
// per-row group ids, so SAMPLE BY supports whatever GROUP BY supports.
import type { Vector } from './batch.js';
import type { AggregateSpec } from './group-by.js';
import type { AggregateKernel } from './aggregate-kernels.js';
import { createKernel } from './aggregate-kernels.js';
import { assert, unreachable } from '../../core/assert.js';
import type { ColumnStatKind } from './sample-by-column-stats.js';
import { COLUMN_STAT_KINDS, ColumnStats } from './sample-by-column-stats.js';
import type { ValueType } from '../../types/column-type.js';
import { isInt64Type } from '../../types/column-type.js';

export interface SampleKernel {
  /** Rows [lo, hi) of the batch belong to `slot`. */
  addRun(arg: Vector | undefined, lo: number, hi: number, slot: number): void;
  /** Row r belongs to `groups[r]`. */
  addRows(arg: Vector | undefined, rowCount: number, groups: Int32Array, groupCount: number): void;
  result(slotCount: number): Vector;
  /** False: the operator must call addRows (the general kernels have no run entry point). */
  readonly runs: boolean;
}

type FastKind = 'count' | 'count_col' | 'sum' | 'avg' | 'min' | 'max' | 'first' | 'last';
const FAST_KINDS = new Set<string>(['count', 'count_col', 'sum', 'avg', 'min', 'max', 'first', 'last']);
const FLOAT64_TYPES = new Set<ValueType>(['DOUBLE', 'LONG', 'TIMESTAMP', 'DATE']);

/** Over 64-bit integers these keep an exact value (sum wraps like Java's long): the general kernels compute them. */
const EXACT_INT64_KINDS = new Set<string>(['sum', 'min', 'max', 'first', 'last']);

export function createSampleKernel(spec: AggregateSpec): SampleKernel {
  const exactInt64 = spec.argType !== undefined && isInt64Type(spec.argType) && EXACT_INT64_KINDS.has(spec.kind);
  const fast = !exactInt64 && FAST_KINDS.has(spec.kind) && (spec.argIndex < 0 || (spec.argType !== undefined && FLOAT64_TYPES.has(spec.argType)));
  if (fast) return new Float64RunKernel(spec.kind as FastKind, spec.resultType);
  return new GeneralKernel(createKernel(spec.kind, spec.argType, spec.resultType, spec.params ?? []));
}

/**
 * The kernels of a SAMPLE BY's aggregates. Fast sum/avg/min/max/count(x) kernels that would read one input
 * column in more than one pass (two of them over the column, or a sum or avg, which reads values and counts)
 * share one ColumnStats: the first of them feeds it in one pass, the others are fed nothing and read it.
 */
export function createSampleKernels(specs: readonly AggregateSpec[]): SampleKernel[] {
  const kernels = specs.map(createSampleKernel);
  const statsByArg = new Map<number, ColumnStats>();
  for (const argIndex of columnsReadTwice(specs, kernels)) statsByArg.set(argIndex, new ColumnStats());
  return kernels.map((kernel, k) => {
    const spec = specs[k];
    const stats = isColumnStatKernel(spec, kernel) ? statsByArg.get(spec.argIndex) : undefined;
    if (stats === undefined) return kernel;
    const feeds = specs.findIndex((other, j) => other.argIndex === spec.argIndex && isColumnStatKernel(other, kernels[j])) === k;
    return new ColumnStatsKernel(stats, spec.kind as ColumnStatKind, spec.resultType, feeds);
  });
}

function isColumnStatKernel(spec: AggregateSpec, kernel: SampleKernel): boolean {
  return kernel instanceof Float64RunKernel && spec.argIndex >= 0 && COLUMN_STAT_KINDS.has(spec.kind);
}

/** Input columns the fast column-stat kernels would read more than once between them. */
function columnsReadTwice(specs: readonly AggregateSpec[], kernels: readonly SampleKernel[]): number[] {
  const passes = new Map<number, number>();
  specs.forEach((spec, k) => {
    if (!isColumnStatKernel(spec, kernels[k])) return;
    const own = spec.kind === 'sum' || spec.kind === 'avg' ? 2 : 1;
    passes.set(spec.argIndex, (passes.get(spec.argIndex) ?? 0) + own);
  });
  return [...passes].filter(([, count]) => count > 1).map(([argIndex]) => argIndex);
}

/** One aggregate answered by a column's shared stats; only the feeding kernel passes the rows on. */
class ColumnStatsKernel implements SampleKernel {
  readonly runs = true;
  constructor(private readonly stats: ColumnStats, private readonly kind: ColumnStatKind, private readonly resultType: ValueType, private readonly feeds: boolean) {}

  addRun(arg: Vector | undefined, lo: number, hi: number, slot: number): void {
    if (this.feeds) this.stats.addRun(float64Data(arg), lo, hi, slot);
  }

  addRows(arg: Vector | undefined, rowCount: number, groups: Int32Array, groupCount: number): void {
    if (this.feeds) this.stats.addRows(float64Data(arg), groups, rowCount, groupCount);
  }

  result(slotCount: number): Vector {
    return { type: this.resultType, data: this.stats.result(this.kind, slotCount) };
  }
}

function float64Data(arg: Vector | undefined): Float64Array {
  const data = arg?.data;
  assert(data instanceof Float64Array, 'column-stat kernels read a DOUBLE-valued argument vector');
  return data;
}

class GeneralKernel implements SampleKernel {
  readonly runs = false;
  constructor(private readonly kernel: AggregateKernel) {}

  addRun(): void {
    unreachable('general kernels are fed rows, never runs');
  }

  addRows(arg: Vector | undefined, rowCount: number, groups: Int32Array, groupCount: number): void {
    this.kernel.update(arg, rowCount, groups, groupCount);
  }

  result(slotCount: number): Vector {
    return this.kernel.result(slotCount);
  }
}

/** One accumulator slot per bucket (or group); `seen` counts non-null inputs (rows for count(*)). */
class Float64RunKernel implements SampleKernel {
  readonly runs = true;
  private values = new Float64Array(64);
  private seen = new Float64Array(64);

  constructor(private readonly kind: FastKind, private readonly resultType: ValueType) {}

  addRun(arg: Vector | undefined, lo: number, hi: number, slot: number): void {
    this.ensure(slot + 1);
    if (arg === undefined) {
      this.seen[slot] = this.seen[slot] + (hi - lo);
      return;
    }
    const data = arg.data as Float64Array;
    const values = this.values;
    const seen = this.seen;
    switch (this.kind) {
      case 'count': seen[slot] = seen[slot] + (hi - lo); break;
      case 'count_col': seen[slot] = seen[slot] + countNonNull(data, lo, hi); break;
      case 'sum': case 'avg': {
        values[slot] = values[slot] + sumRange(data, lo, hi);
        seen[slot] = seen[slot] + countNonNull(data, lo, hi);
        break;
      }
      case 'min': case 'max': {
        const found = this.kind === 'min' ? minRange(data, lo, hi) : maxRange(data, lo, hi);
        if (found === found) {
          const current = values[slot];
          if (seen[slot] === 0 || (this.kind === 'min' ? found < current : found > current)) values[slot] = found;
          seen[slot] = 1;
        }
        break;
      }
      case 'first':
        if (seen[slot] === 0) { values[slot] = data[lo]; seen[slot] = 1; }
        break;
      case 'last':
        values[slot] = data[hi - 1];
        seen[slot] = 1;
        break;
    }
  }

  addRows(arg: Vector | undefined, rowCount: number, groups: Int32Array, groupCount: number): void {
    this.ensure(groupCount);
    if (arg === undefined || this.kind === 'count') {
      addCounts(this.seen, groups, rowCount);
      return;
    }
    const data = arg.data as Float64Array;
    switch (this.kind) {
      case 'count_col': countGrouped(data, groups, rowCount, this.seen); break;
      case 'sum': case 'avg': sumGrouped(data, groups, rowCount, this.values, this.seen); break;
      case 'min': minMaxGrouped(data, groups, rowCount, this.values, this.seen, false); break;
      case 'max': minMaxGrouped(data, groups, rowCount, this.values, this.seen, true); break;
      case 'first': case 'last': pickGrouped(data, groups, rowCount, this.values, this.seen, this.kind === 'last'); break;
    }
  }

  result(slotCount: number): Vector {
    this.ensure(slotCount);
    const out = new Float64Array(slotCount);
    for (let slot = 0; slot < slotCount; slot++) {
      const seen = this.seen[slot];
      switch (this.kind) {
        case 'count': case 'count_col': out[slot] = seen; break;
        case 'avg': out[slot] = seen === 0 ? NaN : this.values[slot] / seen; break;
        default: out[slot] = seen === 0 ? NaN : this.values[slot];
      }
    }
    return { type: this.resultType, data: out };
  }

  private ensure(size: number): void {
    if (this.values.length >= size) return;
    const length = Math.max(size, this.values.length * 2);
    const values = new Float64Array(length);
    values.set(this.values);
    const seen = new Float64Array(length);
    seen.set(this.seen);
    this.values = values;
    this.seen = seen;
  }
}

function addCounts(counts: Float64Array, groups: Int32Array, rowCount: number): void {
  for (let row = 0; row < rowCount; row++) {
    const group = groups[row];
    counts[group] = counts[group] + 1;
  }
}

function countGrouped(data: Float64Array, groups: Int32Array, rowCount: number, seen: Float64Array): void {
  for (let row = 0; row < rowCount; row++) {
    const v = data[row];
    if (v === v) {
      const group = groups[row];
      seen[group] = seen[group] + 1;
    }
  }
}

function sumGrouped(data: Float64Array, groups: Int32Array, rowCount: number, values: Float64Array, seen: Float64Array): void {
  for (let row = 0; row < rowCount; row++) {
    const v = data[row];
    if (v === v) {
      const group = groups[row];
      values[group] = values[group] + v;
      seen[group] = seen[group] + 1;
    }
  }
}

function minMaxGrouped(data: Float64Array, groups: Int32Array, rowCount: number, values: Float64Array, seen: Float64Array, max: boolean): void {
  for (let row = 0; row < rowCount; row++) {
    const v = data[row];
    if (v !== v) continue;
    const group = groups[row];
    const current = values[group];
    if (seen[group] === 0 || (max ? v > current : v < current)) {
      values[group] = v;
      seen[group] = 1;
    }
  }
}

/** first keeps a group's first row (null included), last its latest row. */
function pickGrouped(data: Float64Array, groups: Int32Array, rowCount: number, values: Float64Array, seen: Float64Array, last: boolean): void {
  for (let row = 0; row < rowCount; row++) {
    const group = groups[row];
    if (!last && seen[group] !== 0) continue;
    values[group] = data[row];
    seen[group] = 1;
  }
}

function countNonNull(data: Float64Array, lo: number, hi: number): number {
  let count = 0;
  for (let i = lo; i < hi; i++) {
    const v = data[i];
    if (v === v) count++;
  }
  return count;
}

/** Four accumulators keep the loop at memory speed; NaN (null) rows are skipped. */
function sumRange(data: Float64Array, lo: number, hi: number): number {
  let s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  let i = lo;
  for (; i + 4 <= hi; i += 4) {
    const a = data[i], b = data[i + 1], c = data[i + 2], d = data[i + 3];
    if (a === a) s0 += a;
    if (b === b) s1 += b;
    if (c === c) s2 += c;
    if (d === d) s3 += d;
  }
  for (; i < hi; i++) {
    const a = data[i];
    if (a === a) s0 += a;
  }
  return s0 + s1 + s2 + s3;
}

/** Smallest non-null value in [lo, hi), NaN when all are null. */
function minRange(data: Float64Array, lo: number, hi: number): number {
  let best = NaN;
  for (let i = lo; i < hi; i++) {
    const v = data[i];
    if (v < best || best !== best) best = v;
  }
  return best;
}

function maxRange(data: Float64Array, lo: number, hi: number): number {
  let best = NaN;
  for (let i = lo; i < hi; i++) {
    const v = data[i];
    if (v > best || best !== best) best = v;
  }
  return best;
}
