// Runtime helpers of DOUBLE[] construction and access (`rt.arrayOf`, `rt.arrayAccess`), with QuestDB's 1-based
// semantics: an index past the end gives NULL (a NULL element, or a NULL sub-array), a slice `lo:hi` excludes
// `hi` and is clamped to the dimension, `lo:` runs to the end, an index or bound below 1 is an error at the
// argument's position. Values are the binary form of types/double-array.ts; results are fresh values.
import { sqlRuntimeError } from '../../core/errors.js';
import { ACCESS_INDEX, arrayDimLength, arrayElementAt, arrayShape, arrayTypeOf, arrayValues, newDoubleArray, rowMajorStrides } from '../../types/double-array.js';
import { formatArrayJson } from '../../types/double-array-format.js';
import { parseArrayText } from '../../types/double-array-parse.js';


/** What one dimension keeps after the access arguments: one index, or a range [lo, hi). */
interface DimSelection {
  lo: number;
  hi: number;
  readonly kept: boolean;
}

function indexError(dim: number, index: number, dimLength: number, position: number): Error {
  return sqlRuntimeError(`array index must be positive [dim=${dim}, index=${index}, dimLen=${dimLength}]`, position);
}

/**
 * Resolves access arguments against a shape; null when the result is NULL (a NULL index or bound, an index
 * past the end). `values` holds one number per index and two per slice, in argument order.
 */
function selectDims(shape: readonly number[], kinds: readonly number[], values: readonly number[], positions: readonly number[]): DimSelection[] | null {
  const selections: DimSelection[] = [];
  let next = 0;
  for (let k = 0; k < kinds.length; k++) {
    const dimLength = shape[k];
    if (kinds[k] === ACCESS_INDEX) {
      const index = values[next++];
      if (index !== index) return null;
      if (index < 1) throw indexError(k + 1, index, dimLength, positions[k]);
      if (index > dimLength) return null;
      selections.push({ lo: index - 1, hi: index, kept: false });
    } else {
      const lo = values[next++];
      const hiValue = values[next++];
      if (lo !== lo) return null;
      const hi = hiValue !== hiValue ? dimLength : Math.min(hiValue - 1, dimLength);
      if (lo < 1 || hi < 0) {
        throw sqlRuntimeError(`array slice bounds must be positive [dim=${k + 1}, dimLen=${dimLength}, lowerBound=${lo}, upperBound=${hi + 1}]`, positions[k]);
      }
      selections.push({ lo: lo - 1, hi: Math.max(lo - 1, hi), kept: true });
    }
  }
  for (let d = kinds.length; d < shape.length; d++) selections.push({ lo: 0, hi: shape[d], kept: true });
  return selections;
}

/** Copies the selected block of a row-major array into `out`, dimension by dimension. */
function copyBlock(source: Float64Array, shape: readonly number[], selections: readonly DimSelection[], out: Float64Array): void {
  const dimCount = shape.length;
  const strides = rowMajorStrides(shape);
  let written = 0;
  const walk = (dim: number, base: number): void => {
    const selection = selections[dim];
    const step = strides[dim];
    if (dim === dimCount - 1) {
      for (let k = selection.lo; k < selection.hi; k++) out[written++] = source[base + k * step];
      return;
    }
    for (let k = selection.lo; k < selection.hi; k++) walk(dim + 1, base + k * step);
  };
  walk(0, 0);
}

export const arrayRuntime = {
  /** Text → array (`'{1,2}'::double[]`); text that is not an array of `dimCount` dimensions is an error. */
  castToArray(text: string | null, dimCount: number, fromName: string, position: number): Uint8Array | null {
    if (text === null) return null;
    const parsed = parseArrayText(text, dimCount);
    if (parsed === undefined) throw sqlRuntimeError(`inconvertible value: \`${text}\` [${fromName} -> ${arrayTypeOf(dimCount)}]`, position);
    return parsed;
  },
  arrayToText(array: Uint8Array | null): string | null {
    return array === null ? null : formatArrayJson(array);
  },
  /** ARRAY[...] with non-constant elements: `elements` row-major, `shape` fixed at bind time. */
  arrayOf(shape: readonly number[], elements: readonly number[]): Uint8Array {
    const built = newDoubleArray(shape);
    const values = built.values;
    for (let k = 0; k < values.length; k++) values[k] = elements[k];
    return built.bytes;
  },
  /** All arguments are indexes, one per dimension: the element, NaN for NULL. */
  arrayElement(array: Uint8Array | null, indexes: readonly number[], positions: readonly number[]): number {
    if (array === null) return NaN;
    let flat = 0;
    for (let d = 0; d < indexes.length; d++) {
      const index = indexes[d];
      const dimLength = arrayDimLength(array, d);
      if (index !== index) return NaN;
      if (index < 1) throw indexError(d + 1, index, dimLength, positions[d]);
      if (index > dimLength) return NaN;
      flat = flat * dimLength + (index - 1);
    }
    return arrayElementAt(array, flat);
  },
  /** Some arguments are slices, or fewer indexes than dimensions: a sub-array, NULL when an index misses. */
  arrayAccess(array: Uint8Array | null, kinds: readonly number[], values: readonly number[], positions: readonly number[]): Uint8Array | null {
    if (array === null) return null;
    const shape = arrayShape(array);
    const selections = selectDims(shape, kinds, values, positions);
    if (selections === null) return null;
    const resultShape: number[] = [];
    for (const selection of selections) if (selection.kept) resultShape.push(selection.hi - selection.lo);
    const built = newDoubleArray(resultShape);
    if (built.values.length > 0) copyBlock(arrayValues(array), shape, selections, built.values);
    return built.bytes;
  },
};
