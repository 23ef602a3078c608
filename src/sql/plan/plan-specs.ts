// Plain-data parameters that logical plan nodes carry and physical operators consume: aggregate, sort, sampler,
// fill and join specifications, and the cell values of materialized rows. Defined here, below exec/, so the plan
// never imports an operator module; exec/ re-exports them where its operators always named them.
import type { ValueType } from '../../types/column-type.js';
import type { TimeUnit } from '../../types/timestamp.js';
import type { TimeZoneRules } from '../../types/time-zone-rules.js';
import type { AggregateKind } from '../functions/signature.js';
import type { BoundExpr } from '../bind/bound.js';

export interface AggregateSpec {
  readonly kind: AggregateKind;
  /** Input column of the argument, or -1 for count(*). */
  readonly argIndex: number;
  readonly argType: ValueType | undefined;
  readonly resultType: ValueType;
  readonly name: string;
  /** Constant arguments after the first (string_agg's separator, approx_percentile's percentile). */
  readonly params?: readonly unknown[];
}

export interface SortKey {
  readonly index: number;
  readonly descending: boolean;
  /** Explicit placement of nulls; undefined means nulls sort as the smallest value. */
  readonly nullsFirst?: boolean;
}

export interface SamplerSpec {
  readonly count: number;
  readonly unit: TimeUnit;
  readonly alignFirstObservation: boolean;
  readonly timeZone?: TimeZoneRules;
  /** WITH OFFSET, µs (applied in local time when a time zone is given). */
  readonly offsetMicros: number;
}

export type FillMode =
  | { readonly kind: 'null' | 'prev' | 'linear' }
  | { readonly kind: 'value'; readonly value: BoundExpr };

/** Where one join output column comes from: a column index of the left or of the right input. */
export interface JoinOutputColumn {
  readonly side: 'left' | 'right';
  readonly index: number;
}

export interface HashJoinSpec {
  readonly joinType: 'inner' | 'left' | 'cross';
  /** Equi-join keys over the left input's columns, pairwise with `rightKeys`; empty: every pair is a candidate. */
  readonly leftKeys: readonly BoundExpr[];
  readonly rightKeys: readonly BoundExpr[];
  readonly outputs: readonly JoinOutputColumn[];
  /** Non-equi part of ON, over the join's output columns. */
  readonly residual: BoundExpr | undefined;
}

export interface AsofJoinSpec {
  readonly joinType: 'asof' | 'lt';
  readonly leftKeys: readonly BoundExpr[];
  readonly rightKeys: readonly BoundExpr[];
  /** Designated timestamp column of each input. */
  readonly leftTimestamp: number;
  readonly rightTimestamp: number;
  readonly outputs: readonly JoinOutputColumn[];
  /** Oldest acceptable match, as left.ts − right.ts in µs; undefined: no limit. */
  readonly toleranceMicros: number | undefined;
}

export interface SpliceJoinSpec {
  readonly leftKeys: readonly BoundExpr[];
  readonly rightKeys: readonly BoundExpr[];
  readonly leftTimestamp: number;
  readonly rightTimestamp: number;
  readonly outputs: readonly JoinOutputColumn[];
}

/** Rows [lo, hi) of one partition to scan (binary-searched from intervals by the optimizer). */
export interface PartitionRange {
  readonly partitionIndex: number;
  readonly lo: number;
  readonly hi: number;
}

/** One value of a materialized row (catalog and metadata relations). */
export type CellValue = number | string | boolean | null;
