// Runtime helpers of the DOUBLE[] functions and element-wise arithmetic, as QuestDB computes them: NULL
// (NaN) elements are skipped by array_sum / array_count (a NULL array sums to 0 and counts 0), array_avg
// averages the finite elements, array_cum_sum counts NULL as 0, arithmetic broadcasts shapes NumPy's way.
// Each helper is a loop over Float64Array views of the values (types/double-array.ts).
import { sqlRuntimeError } from '../../core/errors.js';
import { ARRAY_OP_ADD, ARRAY_OP_MULTIPLY, ARRAY_OP_SUBTRACT, arrayDimCount, arrayDimLength, arrayShape, arrayValues, newDoubleArray, rowMajorStrides } from '../../types/double-array.js';

/** QuestDB's Numbers.DOUBLE_TOLERANCE: array_position's equality margin. */
const DOUBLE_TOLERANCE = 1e-10;


function apply(op: number, a: number, b: number): number {
  switch (op) {
    case ARRAY_OP_ADD: return a + b;
    case ARRAY_OP_SUBTRACT: return a - b;
    case ARRAY_OP_MULTIPLY: return a * b;
    default: return a / b;
  }
}

function shapeText(shape: readonly number[]): string {
  return `[${shape.join(',')}]`;
}

/** NumPy broadcasting: shapes align at the right; each pair of lengths is equal or one of them is 1. */
function broadcastShape(left: readonly number[], right: readonly number[], position: number): number[] {
  const dimCount = Math.max(left.length, right.length);
  const shape = new Array<number>(dimCount);
  for (let k = 1; k <= dimCount; k++) {
    const a = left.length - k >= 0 ? left[left.length - k] : 1;
    const b = right.length - k >= 0 ? right[right.length - k] : 1;
    if (a !== b && a !== 1 && b !== 1) {
      throw sqlRuntimeError(`arrays have incompatible shapes [leftShape=${shapeText(left)}, rightShape=${shapeText(right)}]`, position);
    }
    shape[dimCount - k] = a === 1 ? b : a;
  }
  return shape;
}

/** Element strides of `shape` seen through `target` (a broadcast dimension has stride 0). */
function broadcastStrides(shape: readonly number[], target: readonly number[]): number[] {
  const strides = new Array<number>(target.length).fill(0);
  let stride = 1;
  for (let k = 1; k <= shape.length; k++) {
    const length = shape[shape.length - k];
    strides[target.length - k] = length === 1 ? 0 : stride;
    stride *= length;
  }
  return strides;
}

function elementwiseBroadcast(left: Uint8Array, right: Uint8Array, op: number, position: number): Uint8Array {
  const leftShape = arrayShape(left);
  const rightShape = arrayShape(right);
  const shape = broadcastShape(leftShape, rightShape, position);
  const leftStrides = broadcastStrides(leftShape, shape);
  const rightStrides = broadcastStrides(rightShape, shape);
  const a = arrayValues(left);
  const b = arrayValues(right);
  const built = newDoubleArray(shape);
  const out = built.values;
  let written = 0;
  const walk = (dim: number, ia: number, ib: number): void => {
    const length = shape[dim];
    const sa = leftStrides[dim];
    const sb = rightStrides[dim];
    for (let k = 0; k < length; k++) {
      if (dim === shape.length - 1) out[written++] = apply(op, a[ia + k * sa], b[ib + k * sb]);
      else walk(dim + 1, ia + k * sa, ib + k * sb);
    }
  };
  if (out.length > 0) walk(0, 0, 0);
  return built.bytes;
}

function sameShape(left: Uint8Array, right: Uint8Array): boolean {
  const dimCount = arrayDimCount(left);
  if (dimCount !== arrayDimCount(right)) return false;
  for (let d = 0; d < dimCount; d++) if (arrayDimLength(left, d) !== arrayDimLength(right, d)) return false;
  return true;
}

export const arrayMathRuntime = {
  arraySum(array: Uint8Array | null): number {
    if (array === null) return 0;
    const values = arrayValues(array);
    let sum = 0;
    for (let k = 0; k < values.length; k++) {
      const v = values[k];
      if (v === v) sum += v;
    }
    return sum;
  },
  arrayAvg(array: Uint8Array | null): number {
    if (array === null) return NaN;
    const values = arrayValues(array);
    let sum = 0;
    let count = 0;
    for (let k = 0; k < values.length; k++) {
      const v = values[k];
      if (Number.isFinite(v)) {
        sum += v;
        count++;
      }
    }
    return sum / count;
  },
  arrayCount(array: Uint8Array | null): number {
    if (array === null) return 0;
    const values = arrayValues(array);
    let count = 0;
    for (let k = 0; k < values.length; k++) if (values[k] === values[k]) count++;
    return count;
  },
  /** 1-based position of the first element equal to `value` (NULL finds the first NULL element); NULL when absent. */
  arrayPosition(array: Uint8Array | null, value: number): number {
    if (array === null) return NaN;
    const values = arrayValues(array);
    for (let k = 0; k < values.length; k++) {
      const v = values[k];
      if (value !== value ? v !== v : Number.isFinite(v) && Math.abs(v - value) <= DOUBLE_TOLERANCE) return k + 1;
    }
    return NaN;
  },
  /** 1-based position at which `value` keeps a sorted 1-D array sorted: after equal elements, or before them when `ahead`. */
  insertionPoint(array: Uint8Array | null, value: number, ahead: boolean): number {
    if (array === null) return NaN;
    const values = arrayValues(array);
    let lo = 0;
    let hi = values.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const v = values[mid];
      if (ahead ? v < value : v <= value) lo = mid + 1;
      else hi = mid;
    }
    return lo + 1;
  },
  arrayCumSum(array: Uint8Array | null): Uint8Array | null {
    if (array === null) return null;
    const values = arrayValues(array);
    const built = newDoubleArray([values.length]);
    const out = built.values;
    let sum = 0;
    for (let k = 0; k < values.length; k++) {
      const v = values[k];
      if (v === v) sum += v;
      out[k] = sum;
    }
    return built.bytes;
  },
  /** Length of 1-based dimension `dim`, checked against the type's dimension count at the argument's position. */
  dimLength(array: Uint8Array | null, dim: number, dimCount: number, position: number): number {
    if (dim !== dim) return NaN;
    if (dim < 1 || dim > dimCount) throw sqlRuntimeError(`array dimension out of bounds [dim=${dim}, dims=${dimCount}]`, position);
    return array === null ? NaN : arrayDimLength(array, dim - 1);
  },
  transpose(array: Uint8Array | null): Uint8Array | null {
    if (array === null) return null;
    const shape = arrayShape(array);
    const dimCount = shape.length;
    const values = arrayValues(array);
    const built = newDoubleArray(shape.slice().reverse());
    const out = built.values;
    const strides = rowMajorStrides(shape);
    // Output index (i_{n-1}, …, i_0) row-major reads input (i_0, …, i_{n-1}).
    const counters = new Array<number>(dimCount).fill(0);
    for (let k = 0; k < out.length; k++) {
      let source = 0;
      for (let d = 0; d < dimCount; d++) source += counters[d] * strides[d];
      out[k] = values[source];
      for (let d = 0; d < dimCount; d++) {
        counters[d] = counters[d] + 1;
        if (counters[d] < shape[d]) break;
        counters[d] = 0;
      }
    }
    return built.bytes;
  },
  /** Matrix product; a 1-D left is one row, a 1-D right one column. */
  matmul(left: Uint8Array | null, right: Uint8Array | null, position: number): Uint8Array | null {
    if (left === null || right === null) return null;
    const leftShape = arrayShape(left);
    const rightShape = arrayShape(right);
    const rows = leftShape.length === 1 ? 1 : leftShape[0];
    const common = leftShape.length === 1 ? leftShape[0] : leftShape[1];
    const rightRows = rightShape[0];
    const columns = rightShape.length === 1 ? 1 : rightShape[1];
    if (rightRows !== common) {
      throw sqlRuntimeError(`left array row length doesn't match right array column length [leftRowLen=${common}, rightColLen=${rightRows}]`, position);
    }
    const a = arrayValues(left);
    const b = arrayValues(right);
    const built = newDoubleArray([rows, columns]);
    const out = built.values;
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < columns; c++) {
        let sum = 0;
        for (let k = 0; k < common; k++) sum += a[r * common + k] * b[k * columns + c];
        out[r * columns + c] = sum;
      }
    }
    return built.bytes;
  },
  /** Array op array; equal shapes take the flat loop, others broadcast. */
  arrayOp(left: Uint8Array | null, right: Uint8Array | null, op: number, position: number): Uint8Array | null {
    if (left === null || right === null) return null;
    if (!sameShape(left, right)) return elementwiseBroadcast(left, right, op, position);
    const a = arrayValues(left);
    const b = arrayValues(right);
    const built = newDoubleArray(arrayShape(left));
    const out = built.values;
    for (let k = 0; k < out.length; k++) out[k] = apply(op, a[k], b[k]);
    return built.bytes;
  },
  /** Array op scalar, or scalar op array when `scalarLeft`. */
  arrayScalarOp(array: Uint8Array | null, scalar: number, op: number, scalarLeft: boolean): Uint8Array | null {
    if (array === null) return null;
    const a = arrayValues(array);
    const built = newDoubleArray(arrayShape(array));
    const out = built.values;
    if (scalarLeft) for (let k = 0; k < out.length; k++) out[k] = apply(op, scalar, a[k]);
    else for (let k = 0; k < out.length; k++) out[k] = apply(op, a[k], scalar);
    return built.bytes;
  },
  arrayEquals(left: Uint8Array | null, right: Uint8Array | null): boolean {
    if (left === null || right === null) return left === right;
    if (!sameShape(left, right)) return false;
    const a = arrayValues(left);
    const b = arrayValues(right);
    for (let k = 0; k < a.length; k++) {
      const x = a[k];
      const y = b[k];
      if (x !== y && !(x !== x && y !== y)) return false;
    }
    return true;
  },
};
