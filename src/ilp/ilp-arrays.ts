// Protocol 2 double arrays: after `name==`, byte 14, the element type (10 = double), a dimension count byte,
// one uint32 LE length per dimension, then the elements as LE doubles, row-major. They are written into a
// DOUBLE[] column of that dimensionality in the value layout of types/double-array.ts.
import type { IlpColumn } from './ilp-table-builder.js';
import { IlpValueError } from './ilp-errors.js';
import type { DoubleArrayType } from '../types/double-array.js';
import { arrayDimsMax, arrayHeaderBytes, isArrayType } from '../types/double-array.js';

const ELEMENT_DOUBLE = 10;
/** A NULL array: the element type byte is 33 and nothing follows. */
const ELEMENT_NULL = 33;
/** Elements one array value may hold (QuestDB bounds each dimension to 2^28 - 1 and the value by its buffers). */
const ilpArrayElementsMax = 1 << 28;

export interface IlpArrayHeader {
  /** Empty for a NULL array. */
  readonly shape: readonly number[];
  readonly elementCount: number;
  /** Offset of the first element in the request bytes. */
  readonly valuesStart: number;
}

/** Reads the header of the array whose type byte is at `at`; undefined while it is incomplete. */
export function readIlpArrayHeader(table: string, data: Buffer, at: number): IlpArrayHeader | undefined {
  if (at + 2 >= data.length) return undefined;
  const elementType = data[at + 1];
  if (elementType === ELEMENT_NULL) return { shape: [], elementCount: 0, valuesStart: at + 2 };
  if (elementType !== ELEMENT_DOUBLE) throw new IlpValueError(`table: ${table}; unsupported array element type ${elementType}`);
  const dimCount = data[at + 2];
  if (dimCount < 1 || dimCount > arrayDimsMax) throw new IlpValueError(`table: ${table}; invalid array dimension count ${dimCount}, expected 1..${arrayDimsMax}`);
  const valuesStart = at + 3 + 4 * dimCount;
  if (valuesStart > data.length) return undefined;
  const shape = new Array<number>(dimCount);
  let elementCount = 1;
  for (let d = 0; d < dimCount; d++) {
    const length = data.readUInt32LE(at + 3 + 4 * d);
    shape[d] = length;
    elementCount *= length;
    if (elementCount > ilpArrayElementsMax) throw new IlpValueError(`table: ${table}; array is too large [maxElements=${ilpArrayElementsMax}]`);
  }
  return { shape, elementCount, valuesStart };
}

/** Appends the array at `valuesStart` to the column, which must be an array column of the same dimensionality. */
export function writeArray(table: string, column: IlpColumn, type: DoubleArrayType | undefined, shape: readonly number[], data: Buffer, valuesStart: number): void {
  const builder = column.builder;
  if (type === undefined && builder.kind === 'var' && isArrayType(column.type)) {
    builder.appendNull();
    return;
  }
  if (builder.kind !== 'var' || column.type !== type) {
    throw new IlpValueError(`table: ${table}, column: ${column.name}; cast error from protocol type: ${type ?? 'DOUBLE[]'} to column type: ${column.type}`);
  }
  const headerBytes = arrayHeaderBytes(shape.length);
  let elementCount = 1;
  for (const length of shape) elementCount *= length;
  const payload = builder.reserve(headerBytes + 8 * elementCount);
  const bytes = builder.bytes;
  bytes.writeInt32LE(shape.length, payload);
  for (let d = 0; d < shape.length; d++) bytes.writeInt32LE(shape[d], payload + 4 + 4 * d);
  bytes.fill(0, payload + 4 + 4 * shape.length, payload + headerBytes);
  data.copy(bytes, payload + headerBytes, valuesStart, valuesStart + 8 * elementCount);
}
