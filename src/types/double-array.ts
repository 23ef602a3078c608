// The DOUBLE[] n-dimensional array type (QuestDB 9): type names with their dimensionality, and the one
// binary form of a value, shared by storage, query vectors, functions and output. A value is
//   int32 dimension count | int32 length per dimension | 0 or 4 bytes padding | float64 elements, row-major,
// little-endian. The padding puts the elements on an 8-byte boundary when the value itself starts 4 bytes past
// one, which is where a stored value starts (after its int32 length prefix, see storage/row-chunk.ts), so a
// Float64Array view over mapped storage needs no copy. Values built in memory are allocated the same way.
import { assert } from '../core/assert.js';

/** `DOUBLE[]`, `DOUBLE[][]`, …: the dimensionality is part of the type. */
export type DoubleArrayType = `DOUBLE[]${string}`;

/** QuestDB's limit on array dimensions. */
export const arrayDimsMax = 32;

export function isArrayType(type: string): type is DoubleArrayType {
  return type.startsWith('DOUBLE[]');
}

export function arrayTypeOf(dimCount: number): DoubleArrayType {
  assert(dimCount >= 1 && dimCount <= arrayDimsMax, 'array types have 1..32 dimensions');
  return `DOUBLE${'[]'.repeat(dimCount)}` as DoubleArrayType;
}

export function arrayTypeDimCount(type: DoubleArrayType): number {
  return (type.length - 6) / 2;
}

/** `DOUBLE[]…` (upper-cased) as a type, or undefined when it is not a well-formed array type name. */
export function parseArrayTypeName(upper: string): DoubleArrayType | undefined {
  if (!/^DOUBLE(\[\]){1,32}$/.test(upper)) return undefined;
  return upper as DoubleArrayType;
}

/** Element-wise operators of array arithmetic, as passed to the runtime helpers. */
export const ARRAY_OP_ADD = 0;
export const ARRAY_OP_SUBTRACT = 1;
export const ARRAY_OP_MULTIPLY = 2;
export const ARRAY_OP_DIVIDE = 3;

/** Kinds of array access arguments: an index (one value) or a slice (two values, `hi` NaN when open-ended). */
export const ACCESS_INDEX = 0;
export const ACCESS_SLICE = 1;

/** Bytes before the first element of a value with `dimCount` dimensions. */
export function arrayHeaderBytes(dimCount: number): number {
  return 4 + 4 * dimCount + (dimCount % 2 === 1 ? 4 : 0);
}

/** An empty value laid out so that its elements are 8-byte aligned (see the file header). */
function allocateValue(dimCount: number, elementCount: number): { bytes: Uint8Array; view: DataView } {
  const size = arrayHeaderBytes(dimCount) + 8 * elementCount;
  const buffer = new ArrayBuffer(size + 4);
  return { bytes: new Uint8Array(buffer, 4, size), view: new DataView(buffer, 4, size) };
}

/** A value with the given shape whose elements the caller fills through the returned Float64Array. */
export function newDoubleArray(shape: ArrayLike<number>): { bytes: Uint8Array; values: Float64Array } {
  const dimCount = shape.length;
  let count = 1;
  for (let d = 0; d < dimCount; d++) count *= shape[d];
  const { bytes, view } = allocateValue(dimCount, count);
  view.setInt32(0, dimCount, true);
  for (let d = 0; d < dimCount; d++) view.setInt32(4 + 4 * d, shape[d], true);
  const values = new Float64Array(bytes.buffer, bytes.byteOffset + arrayHeaderBytes(dimCount), count);
  return { bytes, values };
}

export function encodeDoubleArray(shape: ArrayLike<number>, values: ArrayLike<number>): Uint8Array {
  const built = newDoubleArray(shape);
  assert(built.values.length === values.length, 'element count matches the shape');
  built.values.set(values);
  return built.bytes;
}

function readInt32(bytes: Uint8Array, offset: number): number {
  return bytes[offset] | (bytes[offset + 1] << 8) | (bytes[offset + 2] << 16) | (bytes[offset + 3] << 24);
}

export function arrayDimCount(bytes: Uint8Array): number {
  return readInt32(bytes, 0);
}

/** Length of dimension `dim` (0-based). */
export function arrayDimLength(bytes: Uint8Array, dim: number): number {
  return readInt32(bytes, 4 + 4 * dim);
}

/** Element strides of a row-major array of `shape`: the last dimension's stride is 1. */
export function rowMajorStrides(shape: readonly number[]): number[] {
  const strides = new Array<number>(shape.length);
  let stride = 1;
  for (let d = shape.length - 1; d >= 0; d--) {
    strides[d] = stride;
    stride *= shape[d];
  }
  return strides;
}

export function arrayShape(bytes: Uint8Array): number[] {
  const dimCount = arrayDimCount(bytes);
  const shape = new Array<number>(dimCount);
  for (let d = 0; d < dimCount; d++) shape[d] = readInt32(bytes, 4 + 4 * d);
  return shape;
}

export function arrayElementCount(bytes: Uint8Array): number {
  return (bytes.length - arrayHeaderBytes(arrayDimCount(bytes))) / 8;
}

/** The elements, row-major: a view when they are 8-byte aligned (storage, values built here), else a copy. */
export function arrayValues(bytes: Uint8Array): Float64Array {
  const start = arrayHeaderBytes(arrayDimCount(bytes));
  const count = (bytes.length - start) / 8;
  if ((bytes.byteOffset + start) % 8 === 0) return new Float64Array(bytes.buffer, bytes.byteOffset + start, count);
  return new Float64Array(bytes.slice(start).buffer, 0, count);
}

/** A Float64Array over the whole buffer values were last read from (one mapped file serves many rows). */
let elementBuffer: ArrayBufferLike | undefined;
let elementView: Float64Array<ArrayBufferLike> = new Float64Array(0);

/**
 * Element `flat` (row-major index, in range) without allocating: aligned values are read through one view of
 * their whole buffer, kept while rows come from the same buffer; unaligned ones through a DataView.
 */
export function arrayElementAt(bytes: Uint8Array, flat: number): number {
  const start = bytes.byteOffset + arrayHeaderBytes(arrayDimCount(bytes)) + 8 * flat;
  if (start % 8 !== 0) return new DataView(bytes.buffer, start, 8).getFloat64(0, true);
  if (bytes.buffer !== elementBuffer) {
    elementBuffer = bytes.buffer;
    elementView = new Float64Array(bytes.buffer, 0, bytes.buffer.byteLength >>> 3);
  }
  return elementView[start >>> 3];
}

/**
 * Checks bytes from outside (a Parquet file, a bind value) before they are treated as a value of `dimCount`
 * dimensions; false when the header and the length disagree.
 */
export function isWellFormedArray(bytes: Uint8Array, dimCount: number): boolean {
  if (bytes.length < 4 || arrayDimCount(bytes) !== dimCount || bytes.length < arrayHeaderBytes(dimCount)) return false;
  let count = 1;
  for (let d = 0; d < dimCount; d++) {
    const length = arrayDimLength(bytes, d);
    if (length < 0) return false;
    count *= length;
  }
  return bytes.length === arrayHeaderBytes(dimCount) + 8 * count;
}
