// sum, avg, min and max over DECIMAL: exact BigInt accumulators per group over the vector's canonical text (one
// scale per vector). sum keeps the scale in a wider precision, avg divides half-even at the argument's scale,
// min and max keep the type; a group without a value gives null. Sums are bounded by QuestDB's 256-bit decimal.
import type { ValueType } from '../../../types/column-type.js';
import type { Vector } from '../batch.js';
import type { AggregateKernel } from './aggregate-kernel.js';
import type { DecimalType } from '../../../types/decimal.js';
import { SHORT_DECIMAL_TEXT_CHARS_MAX, decimalScale, decimalUnscaled, divideRounded, formatDecimal, shortDecimalUnscaled } from '../../../types/decimal.js';
import { sqlRuntimeError } from '../../../core/errors.js';

const INT256_MAX = (1n << 255n) - 1n;
const INT256_MIN = -(1n << 255n);

function growBigInts(values: bigint[], size: number): void {
  while (values.length < size) values.push(0n);
}

function growCounts(counts: number[], size: number): void {
  while (counts.length < size) counts.push(0);
}

/** Short values are added in a number per group while it stays exact (values < 10^15 < 2^50, sums < 2^52). */
const SMALL_SUM_LIMIT = 2 ** 52;

/** sum (divide = false) and avg (divide = true); `position` is the call's, for the overflow error. */
export class DecimalSumAvgKernel implements AggregateKernel {
  private readonly sums: bigint[] = [];
  private readonly smallSums: number[] = [];
  private readonly counts: number[] = [];

  constructor(private readonly resultType: DecimalType, private readonly divide: boolean, private readonly name: string, private readonly position: number) {}

  update(arg: Vector | undefined, rowCount: number, groups: Int32Array | undefined, groupCount: number): void {
    growBigInts(this.sums, groupCount);
    growCounts(this.smallSums, groupCount);
    growCounts(this.counts, groupCount);
    const texts = (arg?.data ?? []) as (string | null)[];
    for (let row = 0; row < rowCount; row++) {
      const text = texts[row];
      if (text === null || text === undefined) continue;
      const group = groups === undefined ? 0 : groups[row];
      this.counts[group] = this.counts[group] + 1;
      if (text.length <= SHORT_DECIMAL_TEXT_CHARS_MAX) {
        const small = this.smallSums[group] + shortDecimalUnscaled(text);
        if (small < SMALL_SUM_LIMIT && small > -SMALL_SUM_LIMIT) {
          this.smallSums[group] = small;
          continue;
        }
        this.smallSums[group] = 0;
        this.add(group, BigInt(small));
      } else {
        this.add(group, decimalUnscaled(text));
      }
    }
  }

  private add(group: number, value: bigint): void {
    const sum = this.sums[group] + value;
    if (sum > INT256_MAX || sum < INT256_MIN) {
      throw sqlRuntimeError(`${this.name} aggregation failed: Overflow in addition: result exceeds 256-bit capacity`, this.position);
    }
    this.sums[group] = sum;
  }

  result(groupCount: number): Vector {
    const scale = decimalScale(this.resultType);
    const out = new Array<string | null>(groupCount);
    for (let group = 0; group < groupCount; group++) {
      const count = this.counts[group] ?? 0;
      const sum = (this.sums[group] ?? 0n) + BigInt(this.smallSums[group] ?? 0);
      out[group] = count === 0 ? null : formatDecimal(this.divide ? divideRounded(sum, BigInt(count), 'half-even') : sum, scale);
    }
    return { type: this.resultType, data: out };
  }
}

/** min and max: short texts compare as numbers (exact for 15 digits), others as BigInt unscaled values. */
export class DecimalMinMaxKernel implements AggregateKernel {
  private readonly best: (string | null)[] = [];

  constructor(private readonly type: ValueType & DecimalType, private readonly max: boolean) {}

  update(arg: Vector | undefined, rowCount: number, groups: Int32Array | undefined, groupCount: number): void {
    while (this.best.length < groupCount) this.best.push(null);
    const texts = (arg?.data ?? []) as (string | null)[];
    for (let row = 0; row < rowCount; row++) {
      const text = texts[row];
      if (text === null || text === undefined) continue;
      const group = groups === undefined ? 0 : groups[row];
      const current = this.best[group] ?? null;
      if (current === null || (this.max ? isGreater(text, current) : isGreater(current, text))) this.best[group] = text;
    }
  }

  result(groupCount: number): Vector {
    const out = new Array<string | null>(groupCount);
    for (let group = 0; group < groupCount; group++) out[group] = this.best[group] ?? null;
    return { type: this.type, data: out };
  }
}

/** Canonical texts of one scale, ordered by value. */
function isGreater(a: string, b: string): boolean {
  if (a.length <= SHORT_DECIMAL_TEXT_CHARS_MAX && b.length <= SHORT_DECIMAL_TEXT_CHARS_MAX) return Number(a) > Number(b);
  return decimalUnscaled(a) > decimalUnscaled(b);
}
