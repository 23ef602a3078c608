// Aggregates that need every value of a group: string_agg (text joined by a separator, in input order,
// nulls skipped) and approx_percentile (values kept per group, sorted once at the end). Memory grows with
// the input, as QuestDB's sinks and histograms do; the per-group buffers grow by doubling.
import type { Vector } from '../batch.js';
import type { AggregateKernel } from './aggregate-kernel.js';
import { numericValue, plainValue } from './aggregate-kernel.js';

export class StringAggKernel implements AggregateKernel {
  private readonly texts: (string | undefined)[] = [];
  constructor(private readonly separator: string) {}

  update(arg: Vector | undefined, rowCount: number, groups: Int32Array | undefined): void {
    if (arg === undefined) return;
    const texts = this.texts;
    for (let row = 0; row < rowCount; row++) {
      const value = plainValue(arg, row);
      if (value === null) continue;
      const group = groups === undefined ? 0 : groups[row];
      const current = texts[group];
      texts[group] = current === undefined ? String(value) : current + this.separator + String(value);
    }
  }

  result(groupCount: number): Vector {
    const data: (string | null)[] = new Array<string | null>(groupCount);
    for (let group = 0; group < groupCount; group++) data[group] = this.texts[group] ?? null;
    return { type: 'VARCHAR', data };
  }
}

/**
 * The value at a percentile, ranked as HdrHistogram ranks it: the smallest value with at least
 * round(p * count) values (minimum one) at or below it. Values are kept exactly, so the answer is the
 * histogram's within its precision.
 */
export class PercentileKernel implements AggregateKernel {
  private readonly values: (Float64Array | undefined)[] = [];
  private readonly sizes: number[] = [];
  constructor(private readonly percentile: number) {}

  update(arg: Vector | undefined, rowCount: number, groups: Int32Array | undefined): void {
    if (arg === undefined) return;
    for (let row = 0; row < rowCount; row++) {
      const value = numericValue(arg, row);
      if (value !== value) continue;
      const group = groups === undefined ? 0 : groups[row];
      this.append(group, value);
    }
  }

  private append(group: number, value: number): void {
    let buffer = this.values[group];
    const size = this.sizes[group] ?? 0;
    if (buffer === undefined || buffer.length === size) {
      const next = new Float64Array(Math.max(16, size * 2));
      if (buffer !== undefined) next.set(buffer);
      buffer = next;
      this.values[group] = buffer;
    }
    buffer[size] = value;
    this.sizes[group] = size + 1;
  }

  result(groupCount: number): Vector {
    const out = new Float64Array(groupCount);
    for (let group = 0; group < groupCount; group++) {
      const size = this.sizes[group] ?? 0;
      const buffer = this.values[group];
      if (size === 0 || buffer === undefined) {
        out[group] = NaN;
        continue;
      }
      const sorted = buffer.subarray(0, size).sort();
      const rank = Math.min(size, Math.max(1, Math.round(this.percentile * size)));
      out[group] = sorted[rank - 1];
    }
    return { type: 'DOUBLE', data: out };
  }
}
