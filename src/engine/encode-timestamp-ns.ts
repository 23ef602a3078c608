// Insert coercion into a TIMESTAMP_NS column: every source becomes exact int64 nanoseconds (the rules are in
// types/timestamp-ns-convert.ts); a vector that carries exact 64-bit values is scaled from those.
import type { Vector } from '../sql/compiler.js';
import { vectorValue } from '../sql/compiler.js';
import type { ColumnData } from '../storage/row-chunk.js';
import { INT64_NULL } from '../types/timestamp-ns.js';
import { nanosOfValue, nanosPerUnitOf } from '../types/timestamp-ns-convert.js';

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
