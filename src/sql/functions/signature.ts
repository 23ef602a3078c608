// Function definitions as data: name, argument types, return type and an emitter of JavaScript source.
// Emitted expressions follow the value domains of codegen: numbers with NaN as null for numeric, time and
// IPv4 types; booleans; string | null for text types (SYMBOL and CHAR included).
import type { ValueType } from '../../types/column-type.js';
import type { BoundExpr } from '../bind/bound.js';

/**
 * 'ANY' accepts every type; 'NUMERIC' any of BYTE..DOUBLE; 'TEXT' STRING/VARCHAR/SYMBOL/CHAR; 'GEOHASH' any
 * precision; 'ARRAY' any DOUBLE[] type; 'DECIMAL' any DECIMAL(p,s), or an integer type read as a decimal of scale 0.
 */
export type ArgType = ValueType | 'ANY' | 'NUMERIC' | 'TEXT' | 'GEOHASH' | 'ARRAY' | 'DECIMAL';

/** `prepared` is what the definition's `prepare` returned at bind time (a compiled pattern, a call-site state). */
export type Emit = (args: readonly string[], constant: (value: unknown) => string, argTypes: readonly ValueType[], prepared?: unknown) => string;

/**
 * Bind-time hook: validates constant arguments (units, patterns, ranges), throwing a positioned SqlError, and
 * returns state the emitter embeds as a constant, so per-row code never re-parses a constant argument.
 */
export type Prepare = (args: readonly BoundExpr[], position: number) => unknown;

export interface ScalarFunctionDef {
  readonly name: string;
  readonly args: readonly ArgType[];
  /** The last argument type repeats. */
  readonly variadic?: boolean;
  /** A function form may read constant arguments (make_geohash's precision) from `args`. */
  readonly returns: ValueType | ((argTypes: readonly ValueType[], args?: readonly BoundExpr[]) => ValueType);
  readonly emit: Emit;
  /**
   * For an int64 result that doubles cannot hold exactly (TIMESTAMP_NS dates): JS over the exact forms, int64
   * arguments as BigInt expressions (Long.MIN_VALUE null), the others as in `emit`, giving a BigInt. Used by the
   * exact path of integer expressions (codegen/emit-int64.ts) for each row whose value needs it.
   */
  readonly emitExact?: Emit;
  /** Not constant-foldable (random, now()). */
  readonly volatile?: boolean;
  readonly prepare?: Prepare;
  /** Every argument is first cast to the result type (coalesce, nullif, greatest, least). */
  readonly unifyArgs?: boolean;
}

export type AggregateKind =
  | 'count' | 'count_col' | 'sum' | 'avg' | 'min' | 'max' | 'first' | 'last' | 'count_distinct'
  | 'ksum' | 'nsum' | 'stddev_samp' | 'stddev_pop' | 'var_samp' | 'var_pop' | 'first_not_null' | 'last_not_null'
  | 'string_agg' | 'approx_percentile';

export interface AggregateFunctionDef {
  readonly name: string;
  readonly args: readonly ArgType[];
  readonly returns: ValueType | ((argTypes: readonly ValueType[]) => ValueType);
  readonly kind: AggregateKind;
  /** Validates the constant arguments after the first (separator, percentile) and returns them for the kernel. */
  readonly params?: (args: readonly BoundExpr[], position: number) => readonly unknown[];
}
