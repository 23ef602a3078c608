// min/max/first/last over TIMESTAMP_NS: kept as exact int64 per group (a double would merge values a few ns
// apart at today's dates), read from the vector's exact values when it has them. The result vector carries
// both the exact values and their numbers.
import type { ValueType } from '../../../types/column-type.js';
import type { Vector } from '../batch.js';
import type { AggregateKernel } from './aggregate-kernel.js';
import type { PickKind } from './pick-kernels.js';
import { INT64_NULL, nanosAt } from '../../../types/timestamp-ns.js';

/** Groups not seen yet; distinct from INT64_NULL, which records a null `first`/`last`. */
const UNSET = 9223372036854775807n;

export class NanosPickKernel implements AggregateKernel {
  private values = new BigInt64Array(16).fill(UNSET);

  constructor(private readonly kind: PickKind, private readonly type: ValueType) {}

  update(arg: Vector | undefined, rowCount: number, groups: Int32Array | undefined, groupCount: number): void {
    if (arg === undefined) return;
    this.grow(groupCount);
    const values = this.values;
    const data = arg.data as Float64Array;
    const kind = this.kind;
    for (let row = 0; row < rowCount; row++) {
      const group = groups === undefined ? 0 : groups[row];
      const current = values[group];
      const value = nanosAt(data, arg.exact, row) ?? INT64_NULL;
      if (kind === 'first') {
        if (current === UNSET) values[group] = value;
      } else if (kind === 'last') {
        values[group] = value;
      } else if (value === INT64_NULL) {
        continue;
      } else if (kind === 'first_not_null') {
        if (current === UNSET || current === INT64_NULL) values[group] = value;
      } else if (kind === 'last_not_null' || current === UNSET || (kind === 'min' ? value < current : value > current)) {
        values[group] = value;
      }
    }
  }

  result(groupCount: number): Vector {
    const exact = new BigInt64Array(groupCount);
    const data = new Float64Array(groupCount);
    for (let group = 0; group < groupCount; group++) {
      const value = group < this.values.length ? this.values[group] : UNSET;
      exact[group] = value === UNSET ? INT64_NULL : value;
      data[group] = value === UNSET || value === INT64_NULL ? NaN : Number(value);
    }
    return { type: this.type, data, exact };
  }

  private grow(groupCount: number): void {
    if (this.values.length >= groupCount) return;
    const next = new BigInt64Array(Math.max(groupCount, this.values.length * 2)).fill(UNSET);
    next.set(this.values);
    this.values = next;
  }
}
