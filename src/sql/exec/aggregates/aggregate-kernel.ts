// The contract every aggregate kernel implements, and the helpers they share: null tests per vector
// layout and growable per-group state arrays. Kernels keep one slot per group id in typed arrays that grow
// by doubling; update loops never allocate per row.
import type { ValueType } from '../../../types/column-type.js';
import type { Vector } from '../batch.js';
import { isTextHeldType } from '../../../types/column-type.js';
import { isArrayType } from '../../../types/double-array.js';

export interface AggregateKernel {
  /** Adds a batch: `groups[row]` is the group of each row (undefined: every row is group 0). */
  update(arg: Vector | undefined, rowCount: number, groups: Int32Array | undefined, groupCount: number): void;
  /** One value per group, groups [0, groupCount). */
  result(groupCount: number): Vector;
  /**
   * Set by kernels that count their argument's non-null values as they go (sum, avg): those counts per group as
   * count(x) returns them, so a count of the same argument need not read it again.
   */
  nonNullCounts?(groupCount: number): Vector;
}

export const INT_NULL = -2147483648;

/** `array` when it already holds `size` slots, else a copy at least twice as large with new slots set to `fill`. */
export function growFloat64(array: Float64Array, size: number, fill: number): Float64Array {
  if (array.length >= size) return array;
  const next = new Float64Array(Math.max(size, array.length * 2, 16));
  next.fill(fill, array.length);
  next.set(array);
  return next;
}

export function isNullAt(vector: Vector, row: number): boolean {
  const value = vector.data[row];
  switch (vector.type) {
    case 'INT': return value === INT_NULL;
    case 'SYMBOL': return (value as number) < 0;
    case 'IPV4': case 'CHAR': return value === 0;
    case 'BOOLEAN': case 'BYTE': case 'SHORT': return false;
    case 'STRING': case 'VARCHAR': case 'UUID': case 'BINARY': case 'NULL': return value === null;
    // Numbers: NaN; text-held values and arrays (their binary values): null.
    default: return value === null || value !== value;
  }
}

/** Reads a row of a numeric vector as a number, NaN for null (INT's sentinel, IPv4's 0). */
export function numericValue(arg: Vector, row: number): number {
  const value = (arg.data as Float64Array)[row];
  if (arg.type === 'INT') return value === INT_NULL ? NaN : value;
  if (arg.type === 'IPV4') return value === 0 ? NaN : value >>> 0;
  return value;
}

/**
 * A row's value in a form that compares and hashes naturally: symbol text, IPv4 unsigned, null as null, a 64-bit
 * integer beyond ±2^53 as its exact bigint (where equal doubles stand for different integers).
 */
export function plainValue(arg: Vector, row: number): unknown {
  if (isNullAt(arg, row)) return null;
  const raw = arg.data[row];
  if (arg.type === 'SYMBOL') return (arg.symbols as readonly string[])[raw as number];
  if (arg.type === 'IPV4') return (raw as number) >>> 0;
  if (arg.exact !== undefined && ((raw as number) > Number.MAX_SAFE_INTEGER || (raw as number) < -Number.MAX_SAFE_INTEGER)) return arg.exact[row];
  return raw;
}

/** The value a result vector holds for null, per the type's storage layout. */
export function storedNull(type: ValueType): unknown {
  switch (type) {
    case 'INT': return INT_NULL;
    case 'STRING': case 'VARCHAR': case 'UUID': case 'BINARY': case 'SYMBOL': case 'NULL': return null;
    case 'BOOLEAN': case 'BYTE': case 'SHORT': case 'CHAR': case 'IPV4': return 0;
    default: return isTextHeldType(type) || isArrayType(type) ? null : NaN;
  }
}

/** Doubles per group as a DOUBLE/LONG result vector, NaN where a group saw no value. */
export function float64Result(type: ValueType, values: Float64Array, groupCount: number): Vector {
  const out = new Float64Array(groupCount);
  out.set(values.subarray(0, Math.min(groupCount, values.length)));
  if (values.length < groupCount) out.fill(NaN, values.length);
  return { type, data: out };
}
