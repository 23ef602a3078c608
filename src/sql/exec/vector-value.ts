// One row of a vector as an expression-domain value, for code that handles values one at a time (INSERT
// ... VALUES, UPDATE join keys, the engine's insert coercion) rather than in compiled loops.
import type { Vector } from './batch.js';

/** Reads row `row` of a vector as an expression-domain value (number with NaN null, string|null, boolean). */
export function vectorValue(vector: Vector, row: number): number | string | boolean | null | Uint8Array {
  const raw = vector.data[row];
  switch (vector.type) {
    case 'INT': return raw === -2147483648 ? NaN : (raw as number);
    case 'IPV4': return raw === 0 ? NaN : ((raw as number) >>> 0);
    case 'BOOLEAN': return raw !== 0;
    case 'CHAR': return raw === 0 ? null : String.fromCharCode(raw as number);
    case 'SYMBOL': return (raw as number) < 0 ? null : ((vector.symbols ?? [])[raw as number] ?? null);
    default: return (raw ?? null) as number | string | null | Uint8Array;
  }
}
