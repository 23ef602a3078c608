// Constructors of logical plan nodes: each derives the node's output schema (columns, designated timestamp)
// from its inputs the way the matching operator does, so the binder states only what it decided.
import type { BoundExpr, OutputColumn } from '../bind/bound.js';
import type { TableSnapshot } from '../../storage/table-reader.js';
import type { ParquetPartitionReader } from '../../storage/parquet/parquet-partition-reader.js';
import type { ColumnType } from '../../types/column-type.js';
import type {
  AggregatePlan, AsofJoinPlan, ParquetFilePlan, FilterPlan, HashJoinPlan, LatestPlan, LimitPlan, LogicalPlan, LongSequencePlan, ProjectPlan,
  SamplePlan, ScanPlan, SetOperationPlan, SingleRowPlan, SortPlan, SpliceJoinPlan, ValuesPlan, WindowPlan,
} from './logical-plan.js';
import type { AggregateSpec, AsofJoinSpec, CellValue, HashJoinSpec, SortKey, SpliceJoinSpec } from './plan-specs.js';
import type { WindowCallPlan, WindowSpecPlan } from './window-plan.js';
import { assert } from '../../core/assert.js';

export function scanPlan(snapshot: TableSnapshot, columnIndexes: readonly number[]): ScanPlan {
  const columns = columnIndexes.map((index) => {
    const column = snapshot.meta.columns[index];
    return { name: column?.name ?? '', type: column?.type ?? 'INT' };
  });
  return { kind: 'scan', snapshot, columnIndexes, columns, timestampIndex: columnIndexes.indexOf(snapshot.meta.timestampIndex) };
}

/** `used` are indexes into `fileColumns`, in output order; `timestampIndex` is among the used columns. */
export function parquetFilePlan(path: string, reader: ParquetPartitionReader, fileColumns: readonly { readonly name: string; readonly type: ColumnType }[], used: readonly number[], timestampIndex: number): ParquetFilePlan {
  const columns = used.map((index) => {
    const column = fileColumns[index];
    assert(column !== undefined, 'used columns index the file columns');
    return { name: column.name, type: column.type };
  });
  return { kind: 'parquetFile', path, reader, fileColumns, used, columns, timestampIndex };
}

export function valuesPlan(columns: readonly OutputColumn[], rows: () => readonly (readonly CellValue[])[], label: string): ValuesPlan {
  return { kind: 'values', columns, timestampIndex: -1, rows, label };
}

export function longSequencePlan(count: number): LongSequencePlan {
  return { kind: 'longSequence', count, columns: [{ name: 'x', type: 'LONG' }], timestampIndex: -1 };
}

export function singleRowPlan(): SingleRowPlan {
  return { kind: 'singleRow', columns: [], timestampIndex: -1 };
}

export function filterPlan(input: LogicalPlan, predicate: BoundExpr): FilterPlan {
  assert(predicate.type === 'BOOLEAN', 'a filter predicate is bound as BOOLEAN');
  return { kind: 'filter', input, predicate, columns: input.columns, timestampIndex: input.timestampIndex };
}

export function projectPlan(input: LogicalPlan, exprs: readonly BoundExpr[], names: readonly string[], timestampIndex: number): ProjectPlan {
  const columns = exprs.map((expr, k) => ({ name: names[k] ?? 'column', type: expr.type }));
  return { kind: 'project', input, exprs, columns, timestampIndex };
}

export function aggregatePlan(input: LogicalPlan, keyCount: number, aggregates: readonly AggregateSpec[]): AggregatePlan {
  const columns = [...input.columns.slice(0, keyCount), ...aggregates.map((spec) => ({ name: spec.name, type: spec.resultType }))];
  return { kind: 'aggregate', input, keyCount, aggregates, columns, timestampIndex: -1 };
}

/** The bucket column keeps the input timestamp's name and type; keys follow, then one column per aggregate. */
export function samplePlan(input: LogicalPlan, options: Omit<SamplePlan, 'kind' | 'input' | 'columns' | 'timestampIndex' | 'nanos'>): SamplePlan {
  const timestamp = input.columns[0];
  assert(timestamp?.type === 'TIMESTAMP' || timestamp?.type === 'TIMESTAMP_NS', 'SAMPLE BY input starts with the designated timestamp');
  const keys = input.columns.slice(1, 1 + options.keyCount);
  const values = options.aggregates.map((spec) => ({ name: spec.name, type: spec.resultType }));
  return { kind: 'sample', input, ...options, nanos: timestamp.type === 'TIMESTAMP_NS', columns: [timestamp, ...keys, ...values], timestampIndex: 0 };
}

export function latestPlan(input: LogicalPlan, options: Omit<LatestPlan, 'kind' | 'input' | 'columns' | 'timestampIndex'>): LatestPlan {
  return { kind: 'latest', input, ...options, columns: input.columns, timestampIndex: input.timestampIndex };
}

/** Whether LATEST ON reads `plan.input` as a scan backwards (the interval pass prunes that scan; the physical planner picks the backward scan). */
export function latestReadsScanBackwards(plan: LatestPlan): plan is LatestPlan & { readonly input: ScanPlan } {
  return plan.designated && plan.input.kind === 'scan' && plan.input.timestampIndex === plan.timestampSlot;
}

export function hashJoinPlan(left: LogicalPlan, right: LogicalPlan, spec: HashJoinSpec, columns: readonly OutputColumn[], timestampIndex: number): HashJoinPlan {
  return { kind: 'hashJoin', left, right, spec, columns, timestampIndex };
}

export function asofJoinPlan(left: LogicalPlan, right: LogicalPlan, spec: AsofJoinSpec, columns: readonly OutputColumn[], timestampIndex: number): AsofJoinPlan {
  return { kind: 'asofJoin', left, right, spec, columns, timestampIndex };
}

/** A splice join interleaves both sides by time: neither side's timestamp orders the result alone. */
export function spliceJoinPlan(left: LogicalPlan, right: LogicalPlan, spec: SpliceJoinSpec, columns: readonly OutputColumn[]): SpliceJoinPlan {
  return { kind: 'spliceJoin', left, right, spec, columns, timestampIndex: -1 };
}

export function windowPlan(input: LogicalPlan, exprs: readonly BoundExpr[], windows: readonly WindowSpecPlan[], calls: readonly WindowCallPlan[]): WindowPlan {
  const columns = [...input.columns, ...calls.map((call, k) => ({ name: `window${k}`, type: call.type }))];
  return { kind: 'window', input, exprs, windows, calls, columns, timestampIndex: input.timestampIndex };
}

/** Sorting keeps the designated timestamp only when the first key is that timestamp, ascending. */
export function sortPlan(input: LogicalPlan, keys: readonly SortKey[], keepRows: number | undefined): SortPlan {
  assert(keys.length > 0, 'ORDER BY has at least one key');
  const first = keys[0];
  const timestampIndex = first !== undefined && first.index === input.timestampIndex && !first.descending ? input.timestampIndex : -1;
  return { kind: 'sort', input, keys, keepRows, columns: input.columns, timestampIndex };
}

export function limitPlan(input: LogicalPlan, lo: number, hi: number | undefined): LimitPlan {
  return { kind: 'limit', input, lo, hi, columns: input.columns, timestampIndex: input.timestampIndex };
}

export function setOperationPlan(left: LogicalPlan, right: LogicalPlan, op: SetOperationPlan['op'], all: boolean, columns: readonly OutputColumn[]): SetOperationPlan {
  assert(left.columns.length === columns.length && right.columns.length === columns.length, 'set operation inputs have the result column count');
  return { kind: 'setOperation', left, right, op, all, columns, timestampIndex: -1 };
}
