// Function definitions as data: name, argument types, return type and an emitter of JavaScript source.
// Emitted expressions follow the value domains of codegen: numbers with NaN as null for numeric, time and
// IPv4 types; booleans; string | null for text types (SYMBOL and CHAR included).
import type { ValueType } from '../../types/column-type.js';

/** 'ANY' accepts every type; 'NUMERIC' any of BYTE..DOUBLE; 'TEXT' STRING/VARCHAR/SYMBOL/CHAR. */
export type ArgType = ValueType | 'ANY' | 'NUMERIC' | 'TEXT';

export type Emit = (args: readonly string[], constant: (value: unknown) => string, argTypes: readonly ValueType[]) => string;

export interface ScalarFunctionDef {
  readonly name: string;
  readonly args: readonly ArgType[];
  /** The last argument type repeats. */
  readonly variadic?: boolean;
  readonly returns: ValueType | ((argTypes: readonly ValueType[]) => ValueType);
  readonly emit: Emit;
  /** Not constant-foldable (random, now()). */
  readonly volatile?: boolean;
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
}
