// sum and avg over LONG, read straight from the stored int64 words (never through the per-batch conversion to
// doubles, whose allocation and loop cost twice the sum itself). Each group keeps the low words' sum and the
// high words' sum as doubles, both exact integers: a carry step every `carryRowsMax` rows moves whole 2^32
// units from the low sum into the high one. sum is LONG and wraps like Java's long (the high sum is kept
// modulo 2^32); avg is DOUBLE. A group with no non-null value yields NULL.
import type { Vector } from '../batch.js';
import type { AggregateKernel } from './aggregate-kernel.js';
import { growFloat64 } from './aggregate-kernel.js';
import { assert } from '../../../core/assert.js';
import { int64SumRowsMax, sumInt64Batch } from './int64-sum-wasm.js';
import { knownSmallRange, rememberSmallRange } from './small-int64-memo.js';

const TWO_POW_32 = 4294967296;
/** High word of Long.MIN_VALUE, LONG's null (its low word is 0). */
const NULL_HIGH = -2147483648;
/** 2^537: squared, the factor that turns a subnormal's units (multiples of 2^-1074) back into integers. */
const SUBNORMAL_SCALE = 2 ** 537;
/** Rows between carries: each adds < 2^32 to a low sum, so low sums stay below 2^52, exact in a double. */
const carryRowsMax = 1 << 20;

/** [low sum, high sum, count] of the last ungrouped pass; module-level so the hot path does not allocate. */
const partial = new Float64Array(3);

/** The int64 words of a LONG vector: the stored bytes when the vector has them, else words rebuilt from numbers. */
function wordsOf(vector: Vector, rowCount: number): Int32Array {
  const exact = vector.exact;
  if (exact !== undefined) return new Int32Array(exact.buffer, exact.byteOffset, rowCount * 2);
  const numbers = vector.data as Float64Array;
  const words = new Int32Array(rowCount * 2);
  for (let row = 0; row < rowCount; row++) {
    const value = numbers[row];
    if (value !== value) {
      words[2 * row + 1] = NULL_HIGH;
      continue;
    }
    const high = Math.floor(value / TWO_POW_32);
    words[2 * row] = (value - high * TWO_POW_32) | 0;
    words[2 * row + 1] = high | 0;
  }
  return words;
}

function sumWords(words: Int32Array, rowCount: number): void {
  let low = 0, high = 0, count = 0;
  for (let row = 0; row < rowCount; row++) {
    const h = words[2 * row + 1];
    const l = words[2 * row];
    if (h === NULL_HIGH && l === 0) continue;
    low += l >>> 0;
    high += h;
    count++;
  }
  partial[0] = low;
  partial[1] = high;
  partial[2] = count;
}

/**
 * The common case of a batch whose values all lie in [0, 2^32) (no null, no negative): read as doubles, such an
 * int64 is the subnormal number value × 2^-1074, and subnormals add exactly (fixed point), at the speed of a
 * DOUBLE sum on current CPUs; the OR of the high words, zero only in that case, says whether it applies. The
 * sum (below 2^48 units for a batch) is scaled back by 2^1074 in two exact power-of-two steps. Returns false,
 * leaving `partial` to the caller, when some value is outside the range.
 */
function sumSmallNonNegative(exact: BigInt64Array, rowCount: number): boolean {
  const values = new Float64Array(exact.buffer, exact.byteOffset, rowCount);
  const words = new Int32Array(exact.buffer, exact.byteOffset, rowCount * 2);
  let a0 = 0, a1 = 0, a2 = 0, a3 = 0, highs = 0;
  let row = 0;
  for (; row + 4 <= rowCount; row += 4) {
    a0 += values[row];
    a1 += values[row + 1];
    a2 += values[row + 2];
    a3 += values[row + 3];
    highs |= words[2 * row + 1] | words[2 * row + 3] | words[2 * row + 5] | words[2 * row + 7];
  }
  for (; row < rowCount; row++) {
    a0 += values[row];
    highs |= words[2 * row + 1];
  }
  partial[2] = 0;
  if (highs !== 0) return false;
  setSmallPartial(a0 + a1 + a2 + a3, rowCount);
  return true;
}

/**
 * sumSmallNonNegative without the high-word test, for a range already proven small (small-int64-memo.ts): the
 * loads and the OR of the test cost as much as the sum, so a proven range sums at the speed of a DOUBLE column.
 */
function sumProvenSmall(exact: BigInt64Array, rowCount: number): void {
  const values = new Float64Array(exact.buffer, exact.byteOffset, rowCount);
  let a0 = 0, a1 = 0, a2 = 0, a3 = 0;
  let row = 0;
  for (; row + 4 <= rowCount; row += 4) {
    a0 += values[row];
    a1 += values[row + 1];
    a2 += values[row + 2];
    a3 += values[row + 3];
  }
  for (; row < rowCount; row++) a0 += values[row];
  setSmallPartial(a0 + a1 + a2 + a3, rowCount);
}

function setSmallPartial(subnormalSum: number, rowCount: number): void {
  partial[0] = subnormalSum * SUBNORMAL_SCALE * SUBNORMAL_SCALE;
  partial[1] = 0;
  partial[2] = rowCount;
}

/**
 * [low sum, high sum, count] of stored values: the subnormal pass when it applies (without its test over a
 * range of a column file already proven small), else the WebAssembly sum.
 */
function sumExactBatch(exact: BigInt64Array, rowCount: number): void {
  const known = knownSmallRange(exact, rowCount);
  if (known === 'small') {
    sumProvenSmall(exact, rowCount);
    return;
  }
  if (known === 'unknown') {
    const small = sumSmallNonNegative(exact, rowCount);
    rememberSmallRange(exact, rowCount, small);
    if (small) return;
  }
  if (rowCount <= int64SumRowsMax) sumInt64Batch(exact, rowCount, partial);
  else sumWords(new Int32Array(exact.buffer, exact.byteOffset, rowCount * 2), rowCount);
}

function sumWordsGrouped(words: Int32Array, groups: Int32Array, rowCount: number, lows: Float64Array, highs: Float64Array, counts: Float64Array): void {
  for (let row = 0; row < rowCount; row++) {
    const h = words[2 * row + 1];
    const l = words[2 * row];
    if (h === NULL_HIGH && l === 0) continue;
    const group = groups[row];
    lows[group] = lows[group] + (l >>> 0);
    highs[group] = highs[group] + h;
    counts[group] = counts[group] + 1;
  }
}

/** Moves whole 2^32 units from each low sum into its high sum; `wrap` keeps the high sums modulo 2^32 (sum). */
function carry(lows: Float64Array, highs: Float64Array, groupCount: number, wrap: boolean): void {
  for (let group = 0; group < groupCount; group++) {
    const low = lows[group];
    const units = Math.floor(low / TWO_POW_32);
    lows[group] = low - units * TWO_POW_32;
    const high = highs[group] + units;
    highs[group] = wrap ? high | 0 : high;
  }
}

export class LongSumAvgKernel implements AggregateKernel {
  private lows: Float64Array = new Float64Array(16);
  private highs: Float64Array = new Float64Array(16);
  private counts: Float64Array = new Float64Array(16);
  private rowsSinceCarry = 0;
  private groupsSeen = 0;
  constructor(private readonly average: boolean) {}

  update(arg: Vector | undefined, rowCount: number, groups: Int32Array | undefined, groupCount: number): void {
    if (arg === undefined) return;
    assert(arg.type === 'LONG', 'the LONG sum kernel is chosen for LONG arguments only');
    assert(rowCount <= carryRowsMax, 'a batch fits between two carries');
    this.lows = growFloat64(this.lows, groupCount, 0);
    this.highs = growFloat64(this.highs, groupCount, 0);
    this.counts = growFloat64(this.counts, groupCount, 0);
    this.groupsSeen = Math.max(this.groupsSeen, groupCount);
    if (this.rowsSinceCarry + rowCount > carryRowsMax) {
      carry(this.lows, this.highs, this.groupsSeen, !this.average);
      this.rowsSinceCarry = 0;
    }
    this.rowsSinceCarry += rowCount;
    if (groups !== undefined) {
      sumWordsGrouped(wordsOf(arg, rowCount), groups, rowCount, this.lows, this.highs, this.counts);
      return;
    }
    if (arg.exact === undefined) sumWords(wordsOf(arg, rowCount), rowCount);
    else sumExactBatch(arg.exact, rowCount);
    this.lows[0] = this.lows[0] + partial[0];
    this.highs[0] = this.highs[0] + partial[1];
    this.counts[0] = this.counts[0] + partial[2];
  }

  result(groupCount: number): Vector {
    this.lows = growFloat64(this.lows, groupCount, 0);
    this.highs = growFloat64(this.highs, groupCount, 0);
    this.counts = growFloat64(this.counts, groupCount, 0);
    carry(this.lows, this.highs, groupCount, !this.average);
    return this.average ? this.averages(groupCount) : this.sums(groupCount);
  }

  nonNullCounts(groupCount: number): Vector {
    return { type: 'LONG', data: growFloat64(this.counts, groupCount, 0).slice(0, groupCount) };
  }

  private averages(groupCount: number): Vector {
    const out = new Float64Array(groupCount);
    for (let group = 0; group < groupCount; group++) {
      const count = this.counts[group];
      const total = this.highs[group] * TWO_POW_32 + this.lows[group];
      out[group] = count === 0 ? NaN : total / count;
    }
    return { type: 'DOUBLE', data: out };
  }

  /** LONG sums with their exact 64-bit words (low sums are in [0, 2^32) and high sums int32 after the carry). */
  private sums(groupCount: number): Vector {
    const out = new Float64Array(groupCount);
    const exact = new BigInt64Array(groupCount);
    const words = new Int32Array(exact.buffer);
    for (let group = 0; group < groupCount; group++) {
      const high = this.highs[group];
      const low = this.lows[group];
      const isNull = this.counts[group] === 0;
      words[2 * group] = isNull ? 0 : low | 0;
      words[2 * group + 1] = isNull ? NULL_HIGH : high;
      // Long.MIN_VALUE reached by wrapping is a value here, but storage and output read it as null, as QuestDB does.
      out[group] = isNull || (high === NULL_HIGH && low === 0) ? NaN : high * TWO_POW_32 + low;
    }
    return { type: 'LONG', data: out, exact };
  }
}
