// Per-partition window kernels over typed arrays. Inputs are indexed by position (sorted order), outputs by
// input row through `order` (position → row), so results come back in the input order without a second pass.
// Frame kernels slide over [lo, hi]: both ends only move forward inside a partition (see window-frames.ts), so
// sums update by adding entering and subtracting leaving values, and min/max keep a monotonic deque
// (the sliding-window-minimum technique): O(1) amortised per row.
import { assert } from '../../core/assert.js';

/**
 * Sum and count of the non-null values in each position's frame. `values` is by position, NaN for null;
 * `sums` gets NaN when the frame has no non-null value.
 */
export function frameSums(values: Float64Array, lo: Int32Array, hi: Int32Array, ps: number, pe: number, order: Int32Array, sums: Float64Array, counts: Float64Array): void {
  let loCursor = ps;
  let hiCursor = ps - 1;
  let sum = 0;
  let count = 0;
  for (let i = ps; i < pe; i++) {
    const l = lo[i];
    const h = hi[i];
    assert(l >= loCursor && h >= hiCursor, 'window frame bounds never move backwards inside a partition');
    while (hiCursor < h) {
      hiCursor++;
      const value = values[hiCursor];
      if (hiCursor >= loCursor && value === value) { sum += value; count++; }
    }
    while (loCursor < l) {
      const value = values[loCursor];
      if (loCursor <= hiCursor && value === value) { sum -= value; count--; }
      loCursor++;
    }
    // An emptied frame restarts from an exact zero instead of carrying rounding residue forward.
    if (count === 0) sum = 0;
    const row = order[i];
    sums[row] = count === 0 ? NaN : sum;
    counts[row] = count;
  }
}

/** Minimum (or maximum) of the non-null values in each position's frame, NaN when there is none. */
export function frameExtremes(values: Float64Array, lo: Int32Array, hi: Int32Array, ps: number, pe: number, order: Int32Array, maximum: boolean, deque: Int32Array, out: Float64Array): void {
  let head = 0;
  let tail = 0;
  let loCursor = ps;
  let hiCursor = ps - 1;
  for (let i = ps; i < pe; i++) {
    const l = lo[i];
    const h = hi[i];
    assert(l >= loCursor && h >= hiCursor, 'window frame bounds never move backwards inside a partition');
    while (hiCursor < h) {
      hiCursor++;
      const value = values[hiCursor];
      if (hiCursor < loCursor || value !== value) continue;
      // Values the new one dominates can never be the answer again: drop them from the back.
      while (tail > head && (maximum ? values[deque[tail - 1]] <= value : values[deque[tail - 1]] >= value)) tail--;
      deque[tail++] = hiCursor;
    }
    while (loCursor < l) {
      if (tail > head && deque[head] === loCursor) head++;
      loCursor++;
    }
    out[order[i]] = tail > head ? values[deque[head]] : NaN;
  }
}

/** row_number, rank and dense_rank from peer groups (`peerStart` by position). */
export function rankings(kind: 'row_number' | 'rank' | 'dense_rank', peerStart: Int32Array, ps: number, pe: number, order: Int32Array, out: Float64Array): void {
  let dense = 0;
  for (let i = ps; i < pe; i++) {
    const groupStart = peerStart[i];
    if (groupStart === i) dense++;
    const value = kind === 'row_number' ? i - ps + 1 : kind === 'rank' ? groupStart - ps + 1 : dense;
    out[order[i]] = value;
  }
}

/**
 * lag (direction -1) / lead (+1): the row `distance` positions away inside the partition, or -1. With
 * `nonNull` (IGNORE NULLS, by position) only rows whose value is not null count as steps.
 */
export function offsetRows(direction: -1 | 1, distance: number, ps: number, pe: number, order: Int32Array, nonNull: Uint8Array | undefined, scratch: Int32Array, out: Int32Array): void {
  if (nonNull === undefined || distance === 0) {
    for (let i = ps; i < pe; i++) {
      const target = i + direction * distance;
      out[order[i]] = target >= ps && target < pe ? order[target] : -1;
    }
    return;
  }
  // scratch[0, seen) lists the non-null positions already passed, nearest last, so the distance-th one
  // behind the current row (ahead of it, for lead, which walks backwards) is scratch[seen - distance].
  let seen = 0;
  if (direction < 0) {
    for (let i = ps; i < pe; i++) {
      out[order[i]] = seen >= distance ? order[scratch[seen - distance]] : -1;
      if (nonNull[i] === 1) scratch[seen++] = i;
    }
    return;
  }
  for (let i = pe - 1; i >= ps; i--) {
    out[order[i]] = seen >= distance ? order[scratch[seen - distance]] : -1;
    if (nonNull[i] === 1) scratch[seen++] = i;
  }
}

/**
 * first_value (edge 'first') / last_value ('last'): the row at the frame's edge, or -1 for an empty frame.
 * With `nonNull` (IGNORE NULLS, by position) the first/last row of the frame whose value is not null, found
 * through `scratch` = the nearest non-null position at or after (first) / at or before (last) each position.
 */
export function frameEdgeRows(edge: 'first' | 'last', lo: Int32Array, hi: Int32Array, ps: number, pe: number, order: Int32Array, nonNull: Uint8Array | undefined, scratch: Int32Array, out: Int32Array): void {
  if (nonNull !== undefined) fillNearestNonNull(edge, nonNull, ps, pe, scratch);
  for (let i = ps; i < pe; i++) {
    const l = lo[i];
    const h = hi[i];
    let target = -1;
    if (l <= h) {
      if (nonNull === undefined) target = edge === 'first' ? l : h;
      else if (edge === 'first') target = scratch[l] <= h ? scratch[l] : -1;
      else target = scratch[h] >= l ? scratch[h] : -1;
    }
    out[order[i]] = target < 0 ? -1 : order[target];
  }
}

function fillNearestNonNull(edge: 'first' | 'last', nonNull: Uint8Array, ps: number, pe: number, scratch: Int32Array): void {
  if (edge === 'first') {
    let next = pe;
    for (let k = pe - 1; k >= ps; k--) {
      if (nonNull[k] === 1) next = k;
      scratch[k] = next;
    }
    return;
  }
  let previous = -1;
  for (let k = ps; k < pe; k++) {
    if (nonNull[k] === 1) previous = k;
    scratch[k] = previous;
  }
}
