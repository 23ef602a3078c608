// The merge loops of ASOF / LT joins when either side's designated timestamp is TIMESTAMP_NS: both sides as
// exact int64 ns (a TIMESTAMP side scaled by 1000), since doubles cannot order ns values a few ns apart. Same
// rules as asof-join.ts: the right cursor advances over right.ts <= left.ts - strictOffset.
import type { Vector } from './batch.js';
import { INT64_NULL, nanosAt } from '../../types/timestamp-ns.js';

/** A designated timestamp vector as ns: TIMESTAMP (µs) scaled, TIMESTAMP_NS exact; null stays Long.MIN_VALUE. */
export function nanosOfTimestampVector(vector: Vector, rowCount: number): BigInt64Array {
  const scale = vector.type === 'TIMESTAMP_NS' ? 1n : 1000n;
  const data = vector.data as Float64Array;
  const out = new BigInt64Array(rowCount);
  for (let row = 0; row < rowCount; row++) {
    const value = nanosAt(data, vector.exact, row);
    out[row] = value === undefined ? INT64_NULL : value * scale;
  }
  return out;
}

export function matchUnkeyedNanos(leftTs: BigInt64Array, leftCount: number, rightTs: BigInt64Array, rightCount: number, start: number, strictOffset: bigint, out: Int32Array): number {
  let right = start;
  for (let row = 0; row < leftCount; row++) {
    const bound = leftTs[row] - strictOffset;
    while (right < rightCount && rightTs[right] <= bound) right++;
    out[row] = right - 1;
  }
  return right;
}

export function matchKeyedNanos(
  leftTs: BigInt64Array, leftIds: Int32Array, leftCount: number, rightTs: BigInt64Array, rightIds: Int32Array, rightCount: number,
  latest: Int32Array, start: number, strictOffset: bigint, out: Int32Array,
): number {
  let right = start;
  for (let row = 0; row < leftCount; row++) {
    const bound = leftTs[row] - strictOffset;
    while (right < rightCount && rightTs[right] <= bound) {
      latest[rightIds[right]] = right;
      right++;
    }
    const id = leftIds[row];
    out[row] = id < 0 ? -1 : latest[id];
  }
  return right;
}

export function applyToleranceNanos(leftTs: BigInt64Array, rightTs: BigInt64Array, matches: Int32Array, count: number, toleranceNanos: bigint): void {
  for (let row = 0; row < count; row++) {
    const match = matches[row];
    if (match >= 0 && leftTs[row] - rightTs[match] > toleranceNanos) matches[row] = -1;
  }
}
