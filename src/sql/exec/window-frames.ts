// Window frames over sorted rows. Positions index the sort permutation (rows ordered by partition keys,
// then order keys); partitions and peer groups are contiguous position ranges. For every position the frame
// is an inclusive position range [lo, hi] inside its partition, empty when hi = lo - 1.
// Invariant the kernels rely on: within a partition, lo and hi never decrease (bounds are monotone in the
// current row for ROWS offsets, and for RANGE offsets because keys are sorted).
import type { Vector } from './batch.js';
import type { FrameBoundPlan, FramePlan } from '../plan/window-plan.js';
import { isNullAt } from './aggregate-kernels.js';

/** True when rows a and b hold equal values in every vector (NULL equals NULL, as for grouping). */
export function sameValues(vectors: readonly Vector[], a: number, b: number): boolean {
  for (const vector of vectors) {
    const aNull = isNullAt(vector, a);
    const bNull = isNullAt(vector, b);
    if (aNull || bNull) {
      if (aNull !== bNull) return false;
      continue;
    }
    if (vector.data[a] !== vector.data[b]) return false;
  }
  return true;
}

/** Start positions of the partitions of sorted rows, followed by n (so partition k is [starts[k], starts[k+1])). */
export function partitionStarts(order: Int32Array, keys: readonly Vector[]): Int32Array {
  const n = order.length;
  const starts: number[] = [0];
  if (keys.length > 0) {
    for (let i = 1; i < n; i++) {
      if (!sameValues(keys, order[i - 1], order[i])) starts.push(i);
    }
  }
  if (n === 0) return Int32Array.of(0);
  starts.push(n);
  return Int32Array.from(starts);
}

/** Peer groups (equal order keys) of partition [ps, pe): first and last position of each position's group. */
export function fillPeers(order: Int32Array, orderKeys: readonly Vector[], ps: number, pe: number, peerStart: Int32Array, peerEnd: Int32Array): void {
  let groupStart = ps;
  for (let i = ps; i < pe; i++) {
    if (i > ps && (orderKeys.length === 0 || !sameValues(orderKeys, order[i - 1], order[i]))) {
      for (let k = groupStart; k < i; k++) peerEnd[k] = i - 1;
      groupStart = i;
    }
    peerStart[i] = groupStart;
  }
  for (let k = groupStart; k < pe; k++) peerEnd[k] = pe - 1;
}

function rowsStart(bound: FrameBoundPlan, i: number, ps: number): number {
  switch (bound.kind) {
    case 'unboundedPreceding': return ps;
    case 'preceding': return i - bound.offset;
    case 'following': return i + bound.offset;
    case 'currentRow': return i;
    case 'unboundedFollowing': return Number.MAX_SAFE_INTEGER;
  }
}

function rowsEnd(bound: FrameBoundPlan, i: number, pe: number): number {
  switch (bound.kind) {
    case 'unboundedFollowing': return pe - 1;
    case 'preceding': return i - bound.offset;
    case 'following': return i + bound.offset;
    case 'currentRow': return i;
    case 'unboundedPreceding': return -1;
  }
}

/** Offset of a RANGE bound in ascending key units: PRECEDING subtracts, FOLLOWING adds. */
function rangeDelta(bound: FrameBoundPlan): number {
  return bound.kind === 'preceding' ? -bound.offset : bound.offset;
}

export interface FrameInputs {
  readonly peerStart: Int32Array;
  readonly peerEnd: Int32Array;
  /** RANGE offsets: the single order key per position, negated for DESC so it ascends; NaN for null. */
  readonly keys: Float64Array | undefined;
}

/** Fills lo/hi for the positions of partition [ps, pe). */
export function fillFrameBounds(frame: FramePlan, ps: number, pe: number, inputs: FrameInputs, lo: Int32Array, hi: Int32Array): void {
  if (frame.mode === 'rows') {
    for (let i = ps; i < pe; i++) clampFrame(i, rowsStart(frame.start, i, ps), rowsEnd(frame.end, i, pe), ps, pe, lo, hi);
    return;
  }
  const keys = inputs.keys;
  let nonNullFrom = ps;
  let nonNullTo = pe;
  if (keys !== undefined) {
    while (nonNullFrom < pe && keys[nonNullFrom] !== keys[nonNullFrom]) nonNullFrom++;
    while (nonNullTo > nonNullFrom && keys[nonNullTo - 1] !== keys[nonNullTo - 1]) nonNullTo--;
  }
  let startCursor = nonNullFrom;
  let endCursor = nonNullFrom;
  const startDelta = rangeDelta(frame.start);
  const endDelta = rangeDelta(frame.end);
  for (let i = ps; i < pe; i++) {
    const key = keys === undefined ? NaN : keys[i];
    const isNull = key !== key;
    let start: number;
    let end: number;
    switch (frame.start.kind) {
      case 'unboundedPreceding': start = ps; break;
      case 'currentRow': start = inputs.peerStart[i]; break;
      default:
        if (isNull || keys === undefined) { start = inputs.peerStart[i]; break; }
        while (startCursor < nonNullTo && keys[startCursor] < key + startDelta) startCursor++;
        start = startCursor;
    }
    switch (frame.end.kind) {
      case 'unboundedFollowing': end = pe - 1; break;
      case 'currentRow': end = inputs.peerEnd[i]; break;
      default:
        if (isNull || keys === undefined) { end = inputs.peerEnd[i]; break; }
        while (endCursor < nonNullTo && keys[endCursor] <= key + endDelta) endCursor++;
        end = endCursor - 1;
    }
    clampFrame(i, start, end, ps, pe, lo, hi);
  }
}

function clampFrame(i: number, start: number, end: number, ps: number, pe: number, lo: Int32Array, hi: Int32Array): void {
  const l = Math.min(Math.max(start, ps), pe);
  lo[i] = l;
  hi[i] = Math.max(Math.min(end, pe - 1), l - 1);
}
