// Variance and standard deviation (sample and population) with Welford's online update, which stays
// accurate where the sum-of-squares formula cancels catastrophically. Sample statistics of fewer than two
// values, and population statistics of none, are NULL.
import type { Vector } from '../batch.js';
import type { AggregateKernel } from './aggregate-kernel.js';
import { growFloat64, numericValue } from './aggregate-kernel.js';

export type DeviationKind = 'stddev_samp' | 'stddev_pop' | 'var_samp' | 'var_pop';

function welfordUpdate(arg: Vector, rowCount: number, groups: Int32Array | undefined, counts: Float64Array, means: Float64Array, m2: Float64Array): void {
  for (let row = 0; row < rowCount; row++) {
    const value = numericValue(arg, row);
    if (value !== value) continue;
    const group = groups === undefined ? 0 : groups[row];
    const count = counts[group] + 1;
    const mean = means[group];
    const delta = value - mean;
    const nextMean = mean + delta / count;
    counts[group] = count;
    means[group] = nextMean;
    m2[group] = m2[group] + delta * (value - nextMean);
  }
}

export class DeviationKernel implements AggregateKernel {
  private counts: Float64Array = new Float64Array(16);
  private means: Float64Array = new Float64Array(16);
  private m2: Float64Array = new Float64Array(16);
  constructor(private readonly kind: DeviationKind) {}

  update(arg: Vector | undefined, rowCount: number, groups: Int32Array | undefined, groupCount: number): void {
    if (arg === undefined) return;
    this.counts = growFloat64(this.counts, groupCount, 0);
    this.means = growFloat64(this.means, groupCount, 0);
    this.m2 = growFloat64(this.m2, groupCount, 0);
    welfordUpdate(arg, rowCount, groups, this.counts, this.means, this.m2);
  }

  result(groupCount: number): Vector {
    const out = new Float64Array(groupCount);
    const sample = this.kind === 'stddev_samp' || this.kind === 'var_samp';
    const root = this.kind === 'stddev_samp' || this.kind === 'stddev_pop';
    for (let group = 0; group < groupCount; group++) {
      const count = this.counts[group] ?? 0;
      const divisor = sample ? count - 1 : count;
      const variance = divisor > 0 ? this.m2[group] / divisor : NaN;
      out[group] = root ? Math.sqrt(variance) : variance;
    }
    return { type: 'DOUBLE', data: out };
  }
}
