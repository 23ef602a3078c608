// Merges what the fragments of one parallel query returned, in slice order, into the rows of the final result.
// Groups keep the order of their first appearance across slices, which is the order a single thread meets them
// in, so a GROUP BY or SAMPLE BY without ORDER BY lists groups exactly as the single-threaded plan does.
// Nulls follow the aggregates' rules: sum/min/max/avg ignore them (null when a group has none), count never is.
// 64-bit values that arrive exact stay exact (bigint): LONG sums wrap at 2^64 as the single-threaded sum does,
// while avg divides the unwrapped total.
import type { ColumnBatch, Vector } from '../exec/batch.js';
import { isNullAt } from '../exec/aggregate-kernels.js';
import type { CellValue } from '../exec/materialized.js';
import type { MergeAggregate, ParallelShape } from './parallel-shape.js';
import { assert } from '../../core/assert.js';
import { LONG_NULL_BIG } from '../../types/nulls.js';

/** A merged cell: a plain value, or an exact 64-bit integer. */
export type MergedCell = CellValue | bigint;

/**
 * One cell of a result vector as a plain value: SYMBOL as its text, BOOLEAN as a boolean, an exact 64-bit
 * vector's value as a bigint, null for null.
 */
export function cellOf(vector: Vector, row: number): MergedCell {
  const exact = vector.exact;
  if (exact !== undefined) {
    const value = exact[row];
    return value === LONG_NULL_BIG ? null : value;
  }
  if (isNullAt(vector, row)) return null;
  const value = vector.data[row];
  if (vector.type === 'SYMBOL') return (vector.symbols as readonly string[])[value as number] ?? null;
  if (vector.type === 'BOOLEAN') return value !== 0;
  assert(typeof value === 'number' || typeof value === 'string', 'mergeable vectors hold numbers or strings');
  return value;
}

/** Accumulated state of one aggregate for one group. */
interface PartialState {
  value: MergedCell;
  count: number;
}

interface MergedGroup {
  readonly keys: readonly MergedCell[];
  readonly states: PartialState[];
}

/** Final rows of an aggregate shape: partial states per group merged, then laid out as the output columns. */
export function mergeAggregateRows(shape: Pick<ParallelShape, 'keyIndexes' | 'aggregates' | 'outputs'>, partials: readonly ColumnBatch[]): MergedCell[][] {
  const groups = groupsOfPartials(shape, partials);
  const rows: MergedCell[][] = [];
  for (const group of groups) {
    rows.push(shape.outputs.map((source) => {
      if (source.kind === 'key') return group.keys[shape.keyIndexes.indexOf(source.fragmentIndex)] ?? null;
      return finalValue(shape.aggregates[source.aggregateIndex], group.states[source.aggregateIndex]);
    }));
  }
  return rows;
}

/**
 * The groups of the partials in order of first appearance, each with its folded states. One key (a SAMPLE BY
 * bucket, a symbol) is looked up by its cell itself: Map keys compare as the tagged identity does (1 and '1' and
 * 1n apart, null apart from 'null'), without turning every timestamp into text.
 */
function groupsOfPartials(shape: Pick<ParallelShape, 'keyIndexes' | 'aggregates'>, partials: readonly ColumnBatch[]): Iterable<MergedGroup> {
  const width = Math.max(-1, ...shape.keyIndexes, ...shape.aggregates.map((aggregate) => Math.max(aggregate.fragmentIndex, aggregate.countIndex))) + 1;
  const singleKey = shape.keyIndexes.length === 1 ? shape.keyIndexes[0] : -1;
  const groups = new Map<MergedCell, MergedGroup>();
  for (const batch of partials) {
    assert(batch.vectors.length >= width, 'fragment batches hold every key and partial column the merge reads');
    const keyVector = singleKey < 0 ? undefined : batch.vectors[singleKey];
    for (let row = 0; row < batch.rowCount; row++) {
      const keys = keyVector === undefined ? shape.keyIndexes.map((index) => cellOf(batch.vectors[index], row)) : [cellOf(keyVector, row)];
      const identity = keyVector === undefined ? groupIdentity(keys) : keys[0];
      let group = groups.get(identity);
      if (group === undefined) {
        group = { keys, states: shape.aggregates.map(() => ({ value: null, count: 0 })) };
        groups.set(identity, group);
      }
      for (let k = 0; k < shape.aggregates.length; k++) foldPartial(shape.aggregates[k], group.states[k], batch, row);
    }
  }
  return groups.values();
}

/** A string that is equal for equal key tuples; each cell is tagged with its kind so 1 and '1' stay apart. */
function groupIdentity(keys: readonly MergedCell[]): string {
  let identity = '';
  for (const key of keys) {
    identity += key === null ? '\u0001n' : typeof key === 'string' ? `\u0001s${key}` : `\u0001${typeof key === 'number' ? 'd' : typeof key === 'bigint' ? 'i' : 'b'}${String(key)}`;
  }
  return identity;
}

function foldPartial(aggregate: MergeAggregate, state: PartialState, batch: ColumnBatch, row: number): void {
  const value = cellOf(batch.vectors[aggregate.fragmentIndex], row);
  switch (aggregate.op) {
    case 'count':
      state.value = addCells(state.value ?? 0, value ?? 0);
      return;
    case 'avg':
      state.count += Number(cellOf(batch.vectors[aggregate.countIndex], row) ?? 0);
      if (value !== null) state.value = state.value === null ? value : addCells(state.value, value);
      return;
    case 'sum':
      if (value !== null) state.value = state.value === null ? value : addCells(state.value, value);
      return;
    case 'min':
      if (value !== null && (state.value === null || value < state.value)) state.value = value;
      return;
    case 'max':
      if (value !== null && (state.value === null || value > state.value)) state.value = value;
      return;
  }
}

/** Sum of two numeric cells; exact (unwrapped) when either is a bigint. */
function addCells(left: MergedCell, right: MergedCell): MergedCell {
  if (typeof left === 'bigint' || typeof right === 'bigint') return BigInt(left ?? 0) + BigInt(right ?? 0);
  return numberOrZero(left) + numberOrZero(right);
}

function finalValue(aggregate: MergeAggregate, state: PartialState): MergedCell {
  const value = state.value;
  if (aggregate.op === 'count') return value ?? 0;
  if (aggregate.op === 'avg') return state.count === 0 || value === null ? null : Number(value) / state.count;
  // A 64-bit sum wraps around as the single-threaded LONG sum does.
  if (aggregate.op === 'sum' && typeof value === 'bigint') return BigInt.asIntN(64, value);
  return value;
}

function numberOrZero(value: MergedCell): number {
  return typeof value === 'number' ? value : 0;
}

/** All rows of the partials, in slice order (top-k fragments: the candidates the final sort chooses from). */
export function concatRows(partials: readonly ColumnBatch[]): MergedCell[][] {
  const rows: MergedCell[][] = [];
  for (const batch of partials) {
    for (let row = 0; row < batch.rowCount; row++) rows.push(batch.vectors.map((vector) => cellOf(vector, row)));
  }
  return rows;
}
