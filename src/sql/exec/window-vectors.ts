// Vector helpers of the window operator: reading argument values in sorted (position) order, and building
// result vectors by gathering input rows (lag/lead/first_value/last_value return another row's value).
import type { Vector, VectorData } from './batch.js';
import { allocateVectorData } from './batch.js';
import { isNullAt } from './aggregate-kernels.js';
import { dictionaryEncode } from '../codegen/symbol-output.js';
import type { ValueType } from '../../types/column-type.js';
import { isTextHeldType } from '../../types/column-type.js';

/** 1 where the row at each position holds a non-null value. */
export function nonNullByPosition(vector: Vector, order: Int32Array): Uint8Array {
  const out = new Uint8Array(order.length);
  for (let i = 0; i < order.length; i++) out[i] = isNullAt(vector, order[i]) ? 0 : 1;
  return out;
}

/** Numeric values by position, NaN for null; negated when `negate` (a DESC key read as ascending). */
export function numbersByPosition(vector: Vector, order: Int32Array, negate: boolean): Float64Array {
  const out = new Float64Array(order.length);
  const data = vector.data as Float64Array;
  const sign = negate ? -1 : 1;
  for (let i = 0; i < order.length; i++) {
    const row = order[i];
    out[i] = isNullAt(vector, row) ? NaN : sign * data[row];
  }
  return out;
}

function nullValue(type: ValueType): number | null {
  switch (type) {
    case 'INT': return -2147483648;
    case 'SYMBOL': return -1;
    case 'BOOLEAN': case 'BYTE': case 'SHORT': case 'CHAR': case 'IPV4': return 0;
    case 'STRING': case 'VARCHAR': case 'UUID': case 'BINARY': case 'NULL': return null;
    default: return isTextHeldType(type) ? null : NaN;
  }
}

/**
 * Row `targets[row]` of `source` for every output row; where the target is -1, the same row of `fallback`
 * (lag/lead defaults) or null. Both vectors have the same type (the binder casts the default).
 */
export function gatherRows(source: Vector, targets: Int32Array, fallback: Vector | undefined): Vector {
  const n = targets.length;
  if (source.type === 'SYMBOL' && fallback !== undefined) return gatherSymbolTexts(source, targets, fallback);
  const out: VectorData = allocateVectorData(source.type, n);
  const from = source.data as unknown[];
  const other = fallback?.data as unknown[] | undefined;
  const target = out as unknown[];
  const missing = nullValue(source.type);
  for (let row = 0; row < n; row++) {
    const index = targets[row];
    target[row] = index >= 0 ? from[index] : other !== undefined ? other[row] : missing;
  }
  return source.symbols === undefined ? { type: source.type, data: out } : { type: source.type, data: out, symbols: source.symbols };
}

/** SYMBOL values from two dictionaries: resolved to text, then encoded into one dictionary. */
function gatherSymbolTexts(source: Vector, targets: Int32Array, fallback: Vector): Vector {
  const texts = new Array<string | null>(targets.length);
  const text = (vector: Vector, row: number): string | null => {
    const key = vector.data[row] as number;
    return key < 0 ? null : ((vector.symbols ?? [])[key] ?? null);
  };
  for (let row = 0; row < targets.length; row++) {
    const index = targets[row];
    texts[row] = index >= 0 ? text(source, index) : text(fallback, row);
  }
  return dictionaryEncode(texts, targets.length);
}
