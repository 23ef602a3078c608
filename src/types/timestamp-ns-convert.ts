// One value into TIMESTAMP_NS with QuestDB's insert rules, shared by INSERT ... VALUES (sql/) and the column
// encoder (engine/): TIMESTAMP (µs) and DATE (ms) are scaled, other numbers are taken as nanoseconds, text is
// parsed with up to nine fraction digits; null, NaN and infinities become Long.MIN_VALUE (the null).
import { sqlRuntimeError, sqlSemanticError } from '../core/errors.js';
import type { ValueType } from './column-type.js';
import { typeDisplayName } from './column-type.js';
import { INT64_NULL, parseTimestampNanos } from './timestamp-ns.js';

/** ns per unit of the source types that scale into TIMESTAMP_NS; everything numeric else is taken as ns. */
export function nanosPerUnitOf(type: ValueType): bigint {
  return type === 'TIMESTAMP' ? 1000n : type === 'DATE' ? 1_000_000n : 1n;
}

/** `value` (an expression-domain value of type `from`) as exact nanoseconds; a bad text is reported at `position`. */
export function nanosOfValue(value: number | string | boolean | null | Uint8Array, from: ValueType, scale: bigint, position: number): bigint {
  if (value === null) return INT64_NULL;
  if (typeof value === 'number') return value !== value || !Number.isFinite(value) ? INT64_NULL : BigInt.asIntN(64, BigInt(Math.trunc(value)) * scale);
  if (typeof value === 'string') {
    const nanos = parseTimestampNanos(value);
    if (nanos === undefined) throw sqlRuntimeError(`inconvertible value: \`${value}\` [${typeDisplayName(from)} -> TIMESTAMP_NS]`, position);
    return nanos;
  }
  throw sqlSemanticError(`inconvertible types: ${typeDisplayName(from)} -> TIMESTAMP_NS`, position);
}
