// The logical plan: what a SELECT computes, as readonly kind-tagged nodes, before any choice of operator. The
// binder builds it, optimizer passes rewrite it (pure functions, plan in → plan out) and the physical planner
// turns it into exec factories. Every node carries its output schema: `columns` (names + types) and the index
// of the designated timestamp among them (-1: none). Expressions are bound over the node's input columns.
import type { BoundExpr, OutputColumn } from '../bind/bound.js';
import type { TableSnapshot } from '../../storage/table-reader.js';
import type { TimestampInterval } from '../../types/intervals.js';
import type { ColumnType } from '../../types/column-type.js';
import type { ParquetPartitionReader } from '../../storage/parquet/parquet-partition-reader.js';
import type { AggregateSpec, AsofJoinSpec, CellValue, PartitionRange, FillMode, HashJoinSpec, SamplerSpec, SortKey, SpliceJoinSpec } from './plan-specs.js';
import type { WindowCallPlan, WindowSpecPlan } from './window-plan.js';

interface PlanSchema {
  readonly columns: readonly OutputColumn[];
  readonly timestampIndex: number;
}

/** Rows of a table. `columnIndexes`: table columns in output order; `ranges`: rows limited by interval pruning. */
export interface ScanPlan extends PlanSchema {
  readonly kind: 'scan';
  readonly snapshot: TableSnapshot;
  readonly columnIndexes: readonly number[];
  readonly ranges?: readonly PartitionRange[];
  /** The designated-timestamp intervals `ranges` came from (EXPLAIN shows them). */
  readonly intervals?: readonly TimestampInterval[];
}

/** Columns of a Parquet file given to read_parquet(); `used` are indexes into the file's columns. */
export interface ParquetFilePlan extends PlanSchema {
  readonly kind: 'parquetFile';
  readonly path: string;
  readonly reader: ParquetPartitionReader;
  readonly fileColumns: readonly { readonly name: string; readonly type: ColumnType }[];
  readonly used: readonly number[];
}

/** Rows computed when the query runs (catalog and metadata relations), or long_sequence(n), or one empty row. */
export interface ValuesPlan extends PlanSchema {
  readonly kind: 'values';
  readonly rows: () => readonly (readonly CellValue[])[];
  readonly label: string;
}

export interface LongSequencePlan extends PlanSchema {
  readonly kind: 'longSequence';
  readonly count: number;
}

/** The one row without columns that a SELECT without FROM evaluates its items over. */
export interface SingleRowPlan extends PlanSchema {
  readonly kind: 'singleRow';
}

export interface FilterPlan extends PlanSchema {
  readonly kind: 'filter';
  readonly input: LogicalPlan;
  readonly predicate: BoundExpr;
}

export interface ProjectPlan extends PlanSchema {
  readonly kind: 'project';
  readonly input: LogicalPlan;
  readonly exprs: readonly BoundExpr[];
}

/** Hash aggregation: output is the first `keyCount` input columns per group, then one column per aggregate. */
export interface AggregatePlan extends PlanSchema {
  readonly kind: 'aggregate';
  readonly input: LogicalPlan;
  readonly keyCount: number;
  readonly aggregates: readonly AggregateSpec[];
}

/** Answers count(*)-only aggregates without reading rows: the scan's row count, or a filter's match count. */
export interface CountRowsPlan extends PlanSchema {
  readonly kind: 'countRows';
  readonly input: ScanPlan | FilterPlan;
}

/** SAMPLE BY: input column 0 is the timestamp, 1..keyCount the keys, then aggregate arguments. */
export interface SamplePlan extends PlanSchema {
  readonly kind: 'sample';
  readonly input: LogicalPlan;
  readonly keyCount: number;
  readonly aggregates: readonly AggregateSpec[];
  readonly sampler: SamplerSpec;
  /** FILL modes per aggregate; undefined: FILL(NONE). */
  readonly fills: readonly FillMode[] | undefined;
  readonly from?: BoundExpr;
  readonly to?: BoundExpr;
  /** The input's timestamps ascend (it reads a table scan in order): bucket ends are found by binary search. */
  readonly ordered: boolean;
  /** The bucket column is TIMESTAMP_NS: buckets are computed in µs and widened back. */
  readonly nanos: boolean;
}

/** LATEST ON: the newest row per key tuple, after `predicate` (which LATEST ON applies before picking). */
export interface LatestPlan extends PlanSchema {
  readonly kind: 'latest';
  readonly input: LogicalPlan;
  readonly predicate: BoundExpr | undefined;
  readonly keySlots: readonly number[];
  readonly timestampSlot: number;
  /** The LATEST ON column is the input's designated timestamp, so a scan can be read backwards. */
  readonly designated: boolean;
}

export interface HashJoinPlan extends PlanSchema {
  readonly kind: 'hashJoin';
  readonly left: LogicalPlan;
  readonly right: LogicalPlan;
  readonly spec: HashJoinSpec;
}

export interface AsofJoinPlan extends PlanSchema {
  readonly kind: 'asofJoin';
  readonly left: LogicalPlan;
  readonly right: LogicalPlan;
  readonly spec: AsofJoinSpec;
}

export interface SpliceJoinPlan extends PlanSchema {
  readonly kind: 'spliceJoin';
  readonly left: LogicalPlan;
  readonly right: LogicalPlan;
  readonly spec: SpliceJoinSpec;
}

/** Window functions: the input's columns, then one column per call. */
export interface WindowPlan extends PlanSchema {
  readonly kind: 'window';
  readonly input: LogicalPlan;
  readonly exprs: readonly BoundExpr[];
  readonly windows: readonly WindowSpecPlan[];
  readonly calls: readonly WindowCallPlan[];
}

/** ORDER BY; `keepRows`: only that many leading rows are read (a LIMIT above), so a top-N may serve. */
export interface SortPlan extends PlanSchema {
  readonly kind: 'sort';
  readonly input: LogicalPlan;
  readonly keys: readonly SortKey[];
  readonly keepRows: number | undefined;
}

/** QuestDB LIMIT: `lo` alone (negative: the last rows), or `lo,hi`. */
export interface LimitPlan extends PlanSchema {
  readonly kind: 'limit';
  readonly input: LogicalPlan;
  readonly lo: number;
  readonly hi: number | undefined;
}

/** The last `rows` rows of a table scan in storage order (what LIMIT -n over a scan can return). */
export interface TailPlan extends PlanSchema {
  readonly kind: 'tail';
  readonly input: ScanPlan;
  readonly rows: number;
}

export interface SetOperationPlan extends PlanSchema {
  readonly kind: 'setOperation';
  readonly left: LogicalPlan;
  readonly right: LogicalPlan;
  readonly op: 'union' | 'except' | 'intersect';
  readonly all: boolean;
}

export type LogicalPlan =
  | ScanPlan | ParquetFilePlan | ValuesPlan | LongSequencePlan | SingleRowPlan
  | FilterPlan | ProjectPlan | AggregatePlan | CountRowsPlan | SamplePlan | LatestPlan
  | HashJoinPlan | AsofJoinPlan | SpliceJoinPlan | WindowPlan
  | SortPlan | LimitPlan | TailPlan | SetOperationPlan;

export type PlanKind = LogicalPlan['kind'];
