// Whole-vector operations used by operators: null vectors, gather by selection, slice, concatenation
// (with SYMBOL dictionaries merged when batches carry different ones).
import type { ValueType } from '../../types/column-type.js';
import { vectorKindOfType } from '../../types/column-type.js';
import { int64WordsToNumbers } from '../../types/int64-words.js';
import { int64Runtime } from '../codegen/runtime-int64.js';
import type { ColumnBatch, NumericVectorData, Vector, VectorData } from './batch.js';
import { allocateVectorData } from './batch.js';
import { assert } from '../../core/assert.js';

export function nullVector(type: ValueType, count: number): Vector {
  const data = allocateVectorData(type, count);
  switch (type) {
    case 'INT': (data as Int32Array).fill(-2147483648); break;
    case 'SYMBOL': (data as Int32Array).fill(-1); return { type, data, symbols: [] };
    case 'LONG': case 'DATE': case 'TIMESTAMP': case 'TIMESTAMP_NS': case 'DOUBLE': case 'FLOAT': (data as Float64Array).fill(NaN); break;
    default: break;
  }
  return { type, data };
}

function isTypedArray(data: VectorData): data is NumericVectorData {
  return ArrayBuffer.isView(data);
}

/**
 * A 64-bit column read from storage computes its numbers on first use of `data` (scan.ts). Slicing or
 * gathering a few rows of it must not force that for the whole batch (a LIMIT 10 over a 65,536-row batch),
 * so such vectors are cut on their exact values and stay lazy.
 */
function hasLazyNumbers(vector: Vector): vector is Vector & { exact: BigInt64Array } {
  return vector.exact !== undefined && vector.symbols === undefined && Object.getOwnPropertyDescriptor(vector, 'data')?.get !== undefined;
}

function lazyInt64Vector(type: Vector['type'], exact: BigInt64Array): Vector {
  let numbers: Float64Array | undefined;
  return {
    type,
    exact,
    get data(): Float64Array {
      numbers ??= int64NumbersOf(exact);
      return numbers;
    },
  };
}

function int64NumbersOf(exact: BigInt64Array): Float64Array {
  return int64WordsToNumbers(new Int32Array(exact.buffer, exact.byteOffset, exact.length * 2), exact.length);
}

/** Gathers int64 values as their two int32 words: reading a BigInt64Array element would allocate a BigInt. */
function gatherExact(exact: BigInt64Array, selection: Int32Array, count: number): BigInt64Array {
  const out = new BigInt64Array(count);
  const from = new Int32Array(exact.buffer, exact.byteOffset, exact.length * 2);
  const to = new Int32Array(out.buffer);
  for (let k = 0; k < count; k++) {
    const row = selection[k];
    to[2 * k] = from[2 * row];
    to[2 * k + 1] = from[2 * row + 1];
  }
  return out;
}

export function gatherVector(vector: Vector, selection: Int32Array, count: number): Vector {
  if (hasLazyNumbers(vector)) return lazyInt64Vector(vector.type, gatherExact(vector.exact, selection, count));
  const source = vector.data;
  const out = allocateVectorData(vector.type, count);
  // One loop per array class: a loop shared by every element type makes its loads and stores megamorphic
  // (several times slower; it cost a 32-value IN filter, which keeps a third of the rows, as much as the test).
  if (source instanceof Int32Array) gatherInt32(source, out as Int32Array, selection, count);
  else if (source instanceof Float64Array) gatherFloat64(source, out as Float64Array, selection, count);
  else if (isTypedArray(source)) gatherNumbers(source, out as NumericVectorData, selection, count);
  else gatherValues(source, out as unknown[], selection, count);
  return withData(vector, out, vector.exact === undefined ? undefined : gatherExact(vector.exact, selection, count));
}

function gatherInt32(source: Int32Array, target: Int32Array, selection: Int32Array, count: number): void {
  for (let k = 0; k < count; k++) target[k] = source[selection[k]];
}

function gatherFloat64(source: Float64Array, target: Float64Array, selection: Int32Array, count: number): void {
  for (let k = 0; k < count; k++) target[k] = source[selection[k]];
}

function gatherNumbers(source: NumericVectorData, target: NumericVectorData, selection: Int32Array, count: number): void {
  for (let k = 0; k < count; k++) target[k] = source[selection[k]];
}

function gatherValues(source: readonly unknown[], target: unknown[], selection: Int32Array, count: number): void {
  for (let k = 0; k < count; k++) target[k] = source[selection[k]];
}

export function gatherBatch(batch: ColumnBatch, selection: Int32Array, count: number): ColumnBatch {
  return { rowCount: count, vectors: batch.vectors.map((vector) => gatherVector(vector, selection, count)) };
}

export function sliceVector(vector: Vector, from: number, to: number): Vector {
  if (hasLazyNumbers(vector)) return lazyInt64Vector(vector.type, vector.exact.subarray(from, to));
  const data = vector.data;
  const sliced: VectorData = isTypedArray(data) ? data.subarray(from, to) : data.slice(from, to);
  return withData(vector, sliced, vector.exact?.subarray(from, to));
}

export function sliceBatch(batch: ColumnBatch, from: number, to: number): ColumnBatch {
  return { rowCount: to - from, vectors: batch.vectors.map((vector) => sliceVector(vector, from, to)) };
}

function withData(vector: Vector, data: VectorData, exact: BigInt64Array | undefined): Vector {
  if (vector.symbols !== undefined) return { type: vector.type, data, symbols: vector.symbols };
  return exact === undefined ? { type: vector.type, data } : { type: vector.type, data, exact };
}

/** Concatenates the rows of several batches into one (materialisation for sort, negative limits). */
export function concatBatches(batches: readonly ColumnBatch[], types: readonly ValueType[]): ColumnBatch {
  const total = batches.reduce((sum, batch) => sum + batch.rowCount, 0);
  const vectors = types.map((type, column) => concatColumn(batches, column, type, total));
  return { rowCount: total, vectors };
}

/** Int64 numbers within ±2^53 (NaN null) as their exact values, into `exact` from `offset`. */
function exactFromNumbers(numbers: Float64Array, count: number, exact: BigInt64Array, offset: number): void {
  for (let row = 0; row < count; row++) exact[offset + row] = int64Runtime.lbig(numbers[row]);
}

function concatColumn(batches: readonly ColumnBatch[], column: number, type: ValueType, total: number): Vector {
  const parts = batches.map((batch) => batch.vectors[column]);
  if (type === 'SYMBOL') return concatSymbolColumn(batches, column, total);
  const out = allocateVectorData(type, total);
  // A computed int64 column has exact values only in the batches that needed them (values beyond ±2^53): when
  // any part has them, the others' numbers are exact and join them.
  const withExact = parts.some((part) => part.exact !== undefined);
  const exact = withExact ? new BigInt64Array(total) : undefined;
  let offset = 0;
  batches.forEach((batch, k) => {
    const part = parts[k];
    if (isTypedArray(out)) {
      (out as Float64Array).set((part.data as Float64Array).subarray(0, batch.rowCount), offset);
    } else {
      const target = out as unknown[];
      const source = part.data as unknown[];
      for (let row = 0; row < batch.rowCount; row++) target[offset + row] = source[row];
    }
    if (exact !== undefined) {
      if (part.exact !== undefined) exact.set(part.exact.subarray(0, batch.rowCount), offset);
      else exactFromNumbers(part.data as Float64Array, batch.rowCount, exact, offset);
    }
    offset += batch.rowCount;
  });
  assert(vectorKindOfType(type) !== undefined, 'concatenated type has a vector layout');
  return exact === undefined ? { type, data: out } : { type, data: out, exact };
}

function concatSymbolColumn(batches: readonly ColumnBatch[], column: number, total: number): Vector {
  const keys = new Int32Array(total);
  const first = batches[0]?.vectors[column]?.symbols ?? [];
  const shared = batches.every((batch) => batch.vectors[column]?.symbols === first);
  const merged: string[] = shared ? [...first] : [];
  const index = new Map<string, number>();
  let offset = 0;
  for (const batch of batches) {
    const part = batch.vectors[column];
    const data = part.data as Int32Array;
    for (let row = 0; row < batch.rowCount; row++) {
      const key = data[row];
      if (shared || key < 0) {
        keys[offset + row] = key;
        continue;
      }
      const text = (part.symbols as readonly string[])[key];
      let mapped = index.get(text);
      if (mapped === undefined) {
        mapped = merged.length;
        merged.push(text);
        index.set(text, mapped);
      }
      keys[offset + row] = mapped;
    }
    offset += batch.rowCount;
  }
  return { type: 'SYMBOL', data: keys, symbols: shared ? first : merged };
}
