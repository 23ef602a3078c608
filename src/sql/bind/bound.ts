// Bound expressions: names resolved to input column indexes, every node typed, calls resolved to
// function definitions. Codegen turns these into JavaScript source; they carry positions for runtime errors.
import type { ValueType } from '../../types/column-type.js';
import type { TimestampInterval } from '../../types/intervals.js';

export interface BoundColumn {
  readonly kind: 'column';
  readonly type: ValueType;
  /** Index of the column in the input batch of the operator that evaluates the expression. */
  readonly index: number;
  readonly position: number;
}

export interface BoundConstant {
  readonly kind: 'constant';
  readonly type: ValueType;
  /** Value in expression domain: number (NaN null) for numeric/time/IPv4 types; string|null for text; boolean. */
  readonly value: number | string | boolean | null | Uint8Array;
  /** Exact 64-bit value for LONG/TIMESTAMP/DATE constants beyond ±2^53. */
  readonly exact?: bigint;
  readonly position: number;
}

export interface BoundCall {
  readonly kind: 'call';
  readonly type: ValueType;
  readonly name: string;
  readonly args: readonly BoundExpr[];
  /**
   * Produces the JS expression for the call from the argument expressions (see functions/signature.ts);
   * `symbolColumn` names, in the emitted code, the raw key of the current row (-1: null) and the dictionary
   * (key → text array) of SYMBOL input column `index`.
   */
  readonly emit: (args: readonly string[], constant: (value: unknown) => string, symbolColumn: (index: number) => SymbolColumnRefs) => string;
  /** The exact form of an int64 result over exact arguments (functions/signature.ts `emitExact`), when it has one. */
  readonly emitExact?: (args: readonly string[], constant: (value: unknown) => string) => string;
  /**
   * The value depends on the arguments alone (no clock, randomness, query run or catalog read), so with constant
   * arguments it may be computed once at plan time (optimize/constant-folding.ts). Unset: never folded.
   */
  readonly foldable?: boolean;
  /**
   * `in_interval` (`ts IN '2024-01'`) only: the sorted, disjoint inclusive µs ranges its one argument is tested
   * against, kept as data so the interval pass reads them back without matching comparisons.
   */
  readonly intervals?: readonly TimestampInterval[];
  readonly position: number;
}

export interface SymbolColumnRefs {
  readonly key: string;
  readonly table: string;
  /** Names a value computed once per batch, before the row loop, from `expression` (over the table and constants). */
  readonly perBatch: (expression: string) => string;
}

export type BoundExpr = BoundColumn | BoundConstant | BoundCall;

/** An aggregate call: the argument is evaluated per row (as a projection below the aggregation). */
export interface BoundAggregate {
  readonly name: string;
  readonly type: ValueType;
  /** Argument expressions over the aggregation's input; empty for count(*). */
  readonly args: readonly BoundExpr[];
  readonly distinct: boolean;
  readonly position: number;
}

export interface OutputColumn {
  readonly name: string;
  readonly type: ValueType;
}

export function isConstant(expr: BoundExpr): expr is BoundConstant {
  return expr.kind === 'constant';
}
