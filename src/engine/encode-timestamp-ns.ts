// Insert coercion into a TIMESTAMP_NS column: every source becomes exact int64 nanoseconds. TIMESTAMP (µs) and
// DATE (ms) are scaled, integers are taken as nanoseconds (QuestDB stores a LONG into TIMESTAMP_NS as is), text
// is parsed with up to nine fraction digits; nulls stay Long.MIN_VALUE.
import type { Vector } from '../sql/compiler.js';
import type { ColumnData } from '../storage/row-chunk.js';
import { sqlRuntimeError, sqlSemanticError } from '../core/errors.js';
import { typeDisplayName } from '../types/column-type.js';
import { INT64_NULL, parseTimestampNanos } from '../types/timestamp-ns.js';
import { vectorValue } from './encode-batch.js';

/** ns per unit of the source types that scale into TIMESTAMP_NS; everything numeric else is taken as ns. */
function nanosPerUnitOf(type: Vector['type']): bigint {
  return type === 'TIMESTAMP' ? 1000n : type === 'DATE' ? 1_000_000n : 1n;
}

export function encodeTimestampNsColumn(vector: Vector, rowCount: number, position: number): ColumnData {
  const out = new BigInt64Array(rowCount);
  const from = vector.type;
  const scale = nanosPerUnitOf(from);
  if (vector.exact !== undefined) {
    for (let row = 0; row < rowCount; row++) {
      const value = vector.exact[row];
      out[row] = value === INT64_NULL ? INT64_NULL : BigInt.asIntN(64, value * scale);
    }
  } else {
    for (let row = 0; row < rowCount; row++) out[row] = nanosOfValue(vectorValue(vector, row), from, scale, position);
  }
  return { kind: 'fixed', width: 8, bytes: Buffer.from(out.buffer, out.byteOffset, rowCount * 8) };
}

function nanosOfValue(value: ReturnType<typeof vectorValue>, from: Vector['type'], scale: bigint, position: number): bigint {
  if (value === null) return INT64_NULL;
  if (typeof value === 'number') return value !== value || !Number.isFinite(value) ? INT64_NULL : BigInt.asIntN(64, BigInt(Math.trunc(value)) * scale);
  if (typeof value === 'string') {
    const nanos = parseTimestampNanos(value);
    if (nanos === undefined) throw sqlRuntimeError(`inconvertible value: \`${value}\` [${typeDisplayName(from)} -> TIMESTAMP_NS]`, position);
    return nanos;
  }
  throw sqlSemanticError(`inconvertible types: ${typeDisplayName(from)} -> TIMESTAMP_NS`, position);
}

/**
 * INSERT ... VALUES into a TIMESTAMP_NS column: each row's value converted on its own (its own type decides the
 * scale, its own position reports a bad text), exact where the value came with its 64-bit form.
 */
export function timestampNsValuesVector(
  values: readonly (number | string | boolean | null | Uint8Array)[], exacts: readonly (bigint | undefined)[],
  types: readonly Vector['type'][], positions: readonly number[],
): Vector {
  const exact = new BigInt64Array(values.length);
  for (let row = 0; row < values.length; row++) {
    const type = types[row];
    const known = exacts[row];
    exact[row] = known !== undefined && type !== 'STRING' && type !== 'VARCHAR'
      ? (known === INT64_NULL ? INT64_NULL : BigInt.asIntN(64, known * nanosPerUnitOf(type)))
      : nanosOfValue(values[row] ?? null, type, nanosPerUnitOf(type), positions[row] ?? 0);
  }
  const data = new Float64Array(values.length);
  for (let row = 0; row < values.length; row++) data[row] = exact[row] === INT64_NULL ? NaN : Number(exact[row]);
  return { type: 'TIMESTAMP_NS', data, exact };
}
