// Merges what the fragments of one parallel query returned, in slice order, into the rows of the final result.
// Groups keep the order of their first appearance across slices, which is the order a single thread meets them
// in, so a GROUP BY or SAMPLE BY without ORDER BY lists groups exactly as the single-threaded plan does.
// Nulls follow the aggregates' rules: sum/min/max/avg ignore them (null when a group has none), count never is.
import type { ColumnBatch, Vector } from '../exec/batch.js';
import { isNullAt } from '../exec/aggregate-kernels.js';
import type { CellValue } from '../exec/materialized.js';
import type { MergeAggregate, ParallelShape } from './parallel-shape.js';
import { assert } from '../../core/assert.js';

/** One cell of a result vector as a plain value: SYMBOL as its text, BOOLEAN as a boolean, null for null. */
export function cellOf(vector: Vector, row: number): CellValue {
  if (isNullAt(vector, row)) return null;
  const value = vector.data[row];
  if (vector.type === 'SYMBOL') return (vector.symbols as readonly string[])[value as number] ?? null;
  if (vector.type === 'BOOLEAN') return value !== 0;
  assert(typeof value === 'number' || typeof value === 'string', 'mergeable vectors hold numbers or strings');
  return value;
}

/** Accumulated state of one aggregate for one group. */
interface PartialState {
  value: CellValue;
  count: number;
}

/** Final rows of an aggregate shape: partial states per group merged, then laid out as the output columns. */
export function mergeAggregateRows(shape: Pick<ParallelShape, 'keyIndexes' | 'aggregates' | 'outputs'>, partials: readonly ColumnBatch[]): CellValue[][] {
  const groups = new Map<string, { keys: CellValue[]; states: PartialState[] }>();
  for (const batch of partials) {
    for (let row = 0; row < batch.rowCount; row++) {
      const keys = shape.keyIndexes.map((index) => cellOf(batch.vectors[index] as Vector, row));
      const identity = groupIdentity(keys);
      let group = groups.get(identity);
      if (group === undefined) {
        group = { keys, states: shape.aggregates.map(() => ({ value: null, count: 0 })) };
        groups.set(identity, group);
      }
      for (let k = 0; k < shape.aggregates.length; k++) {
        foldPartial(shape.aggregates[k] as MergeAggregate, group.states[k] as PartialState, batch, row);
      }
    }
  }
  const rows: CellValue[][] = [];
  for (const group of groups.values()) {
    rows.push(shape.outputs.map((source) => {
      if (source.kind === 'key') return group.keys[shape.keyIndexes.indexOf(source.fragmentIndex)] ?? null;
      return finalValue(shape.aggregates[source.aggregateIndex] as MergeAggregate, group.states[source.aggregateIndex] as PartialState);
    }));
  }
  return rows;
}

/** A string that is equal for equal key tuples; each cell is tagged with its kind so 1 and '1' stay apart. */
function groupIdentity(keys: readonly CellValue[]): string {
  let identity = '';
  for (const key of keys) {
    identity += key === null ? '\u0001n' : typeof key === 'string' ? `\u0001s${key}` : `\u0001${typeof key === 'number' ? 'd' : 'b'}${String(key)}`;
  }
  return identity;
}

function foldPartial(aggregate: MergeAggregate, state: PartialState, batch: ColumnBatch, row: number): void {
  const value = cellOf(batch.vectors[aggregate.fragmentIndex] as Vector, row);
  switch (aggregate.op) {
    case 'count':
      state.value = (typeof state.value === 'number' ? state.value : 0) + (typeof value === 'number' ? value : 0);
      return;
    case 'avg':
      state.count += numberOrZero(cellOf(batch.vectors[aggregate.countIndex] as Vector, row));
      if (value !== null) state.value = state.value === null ? value : numberOrZero(state.value) + numberOrZero(value);
      return;
    case 'sum':
      if (value !== null) state.value = state.value === null ? value : numberOrZero(state.value) + numberOrZero(value);
      return;
    case 'min':
      if (value !== null && (state.value === null || value < state.value)) state.value = value;
      return;
    case 'max':
      if (value !== null && (state.value === null || value > state.value)) state.value = value;
      return;
  }
}

function finalValue(aggregate: MergeAggregate, state: PartialState): CellValue {
  if (aggregate.op === 'count') return state.value ?? 0;
  if (aggregate.op === 'avg') return state.count === 0 || state.value === null ? null : numberOrZero(state.value) / state.count;
  return state.value;
}

function numberOrZero(value: CellValue): number {
  return typeof value === 'number' ? value : 0;
}

/** All rows of the partials, in slice order (top-k fragments: the candidates the final sort chooses from). */
export function concatRows(partials: readonly ColumnBatch[]): CellValue[][] {
  const rows: CellValue[][] = [];
  for (const batch of partials) {
    for (let row = 0; row < batch.rowCount; row++) rows.push(batch.vectors.map((vector) => cellOf(vector, row)));
  }
  return rows;
}
