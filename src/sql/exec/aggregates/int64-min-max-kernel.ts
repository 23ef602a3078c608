// min/max over the 64-bit integer types, exact over the whole range. Each group keeps its best value twice: as a
// double, compared first (one load and compare per row, the speed of a DOUBLE min/max), and as the two int32
// words of its exact value, which decide only between values whose doubles are equal beyond ±2^53 (where a
// double stands for many integers). The result carries both, so the exact value reaches the output.
import type { ValueType } from '../../../types/column-type.js';
import type { Vector } from '../batch.js';
import type { AggregateKernel } from './aggregate-kernel.js';
import { growFloat64 } from './aggregate-kernel.js';
import { writeInt64Words } from '../../../types/int64-words.js';
import { assert } from '../../../core/assert.js';

const SAFE = Number.MAX_SAFE_INTEGER;
/** High word of Long.MIN_VALUE, the null (its low word is 0). */
const NULL_HIGH = -2147483648;

/** Whether the int64 at word pair `a` of `left` is beyond (above for max, below for min) the one at `b` of `right`. */
function wordsBeyond(left: Int32Array, a: number, right: Int32Array, b: number, max: boolean): boolean {
  const leftHigh = left[2 * a + 1];
  const rightHigh = right[2 * b + 1];
  if (leftHigh !== rightHigh) return max ? leftHigh > rightHigh : leftHigh < rightHigh;
  const leftLow = left[2 * a] >>> 0;
  const rightLow = right[2 * b] >>> 0;
  return max ? leftLow > rightLow : leftLow < rightLow;
}

function takeRow(data: Float64Array, words: Int32Array | undefined, row: number, best: Float64Array, bestWords: Int32Array, group: number): void {
  const value = data[row];
  best[group] = value;
  if (words === undefined) {
    writeInt64Words(bestWords, group, value);
  } else {
    bestWords[2 * group] = words[2 * row];
    bestWords[2 * group + 1] = words[2 * row + 1];
  }
}

function minMaxInt64(data: Float64Array, words: Int32Array | undefined, groups: Int32Array | undefined, rowCount: number, best: Float64Array, bestWords: Int32Array, max: boolean): void {
  for (let row = 0; row < rowCount; row++) {
    const value = data[row];
    if (value !== value) continue;
    const group = groups === undefined ? 0 : groups[row];
    const current = best[group];
    if (current !== current || (max ? value > current : value < current)) {
      takeRow(data, words, row, best, bestWords, group);
    } else if (value === current && (value > SAFE || value < -SAFE) && words !== undefined && wordsBeyond(words, row, bestWords, group, max)) {
      takeRow(data, words, row, best, bestWords, group);
    }
  }
}

/** min/max of a 64-bit integer column; NaN marks a group without values yet. */
export class Int64MinMaxKernel implements AggregateKernel {
  private best: Float64Array = new Float64Array(16).fill(NaN);
  private bestWords = new Int32Array(32);
  constructor(private readonly type: ValueType, private readonly max: boolean) {}

  update(arg: Vector | undefined, rowCount: number, groups: Int32Array | undefined, groupCount: number): void {
    if (arg === undefined) return;
    this.best = growFloat64(this.best, groupCount, NaN);
    if (this.bestWords.length < this.best.length * 2) {
      const grown = new Int32Array(this.best.length * 2);
      grown.set(this.bestWords);
      this.bestWords = grown;
    }
    const exact = arg.exact;
    assert(exact === undefined || exact.length >= rowCount, 'exact values cover the batch');
    const words = exact === undefined ? undefined : new Int32Array(exact.buffer, exact.byteOffset, rowCount * 2);
    minMaxInt64(arg.data as Float64Array, words, groups, rowCount, this.best, this.bestWords, this.max);
  }

  result(groupCount: number): Vector {
    const data = new Float64Array(groupCount);
    const exact = new BigInt64Array(groupCount);
    const exactWords = new Int32Array(exact.buffer);
    for (let group = 0; group < groupCount; group++) {
      const value = group < this.best.length ? this.best[group] : NaN;
      data[group] = value;
      if (value !== value) {
        exactWords[2 * group + 1] = NULL_HIGH;
      } else {
        exactWords[2 * group] = this.bestWords[2 * group];
        exactWords[2 * group + 1] = this.bestWords[2 * group + 1];
      }
    }
    return { type: this.type, data, exact };
  }
}
