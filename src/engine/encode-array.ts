// DOUBLE[] columns from insert values: arrays of the column's dimensionality as they are, nulls as nulls, and
// text in array form (`'{1,2}'`, `'[1,2]'`) parsed, as QuestDB's string → array cast does.
import type { ColumnData } from '../storage/row-chunk.js';
import { varColumnFromArrays } from '../storage/row-chunk.js';
import type { Vector } from '../sql/compiler.js';
import type { DoubleArrayType } from '../types/double-array.js';
import { arrayDimCount, arrayTypeDimCount, arrayTypeOf, isArrayType } from '../types/double-array.js';
import { parseArrayText } from '../types/double-array-parse.js';
import { typeDisplayName } from '../types/column-type.js';
import { sqlRuntimeError, sqlSemanticError } from '../core/errors.js';

export function encodeArrayColumn(vector: Vector, rowCount: number, to: DoubleArrayType, position: number): ColumnData {
  const from = vector.type;
  if (isArrayType(from)) {
    // Rows of one INSERT may hold arrays of different dimensionality: each must match the column's.
    const values = vector.data as (Uint8Array | null)[];
    const dims = arrayTypeDimCount(to);
    for (let row = 0; row < rowCount; row++) {
      const value = values[row];
      if (value !== null && value !== undefined && arrayDimCount(value) !== dims) {
        throw sqlSemanticError(`inconvertible types: ${arrayTypeOf(arrayDimCount(value))} -> ${typeDisplayName(to)}`, position);
      }
    }
    return varColumnFromArrays(values, rowCount);
  }
  if (from === 'NULL' || from === 'STRING' || from === 'VARCHAR') {
    const texts = vector.data as (string | null)[];
    const values = new Array<Uint8Array | null>(rowCount);
    for (let row = 0; row < rowCount; row++) {
      const text = texts[row] ?? null;
      values[row] = text === null ? null : parsedOrThrow(text, to, position);
    }
    return varColumnFromArrays(values, rowCount);
  }
  throw sqlSemanticError(`inconvertible types: ${typeDisplayName(from)} -> ${typeDisplayName(to)}`, position);
}

function parsedOrThrow(text: string, to: DoubleArrayType, position: number): Uint8Array {
  const parsed = parseArrayText(text, arrayTypeDimCount(to));
  if (parsed === undefined) throw sqlRuntimeError(`inconvertible value: \`${text}\` [STRING -> ${typeDisplayName(to)}]`, position);
  return parsed;
}
