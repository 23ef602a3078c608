// Binds array expressions: `ARRAY[...]` literals (a constant value when every element is constant, else a
// call that builds the array per row) and access `arr[i, j]`, `arr[lo:hi]`, `arr[i][j]` with QuestDB's
// checks: index arguments are INT, SHORT or BYTE; no more arguments than dimensions; constant indexes and
// slice bounds are at least 1. Each error carries the position QuestDB reports.
import type { ArrayExpr, ArrayIndexExpr, Expr } from '../syntax/ast.js';
import type { BoundExpr } from './bound.js';
import type { ValueType } from '../../types/column-type.js';
import { isNumericType, typeDisplayName } from '../../types/column-type.js';
import { ACCESS_INDEX, ACCESS_SLICE, arrayDimsMax, arrayTypeDimCount, arrayTypeOf, encodeDoubleArray, isArrayType } from '../../types/double-array.js';
import { sqlSemanticError } from '../../core/errors.js';

type BindElement = (expr: Expr) => BoundExpr;

/** QuestDB's numeric type codes, which its "invalid type for array access" message prints. */
const QUESTDB_TYPE_CODES: Partial<Record<ValueType, number>> = {
  BOOLEAN: 1, BYTE: 2, SHORT: 3, CHAR: 4, INT: 5, LONG: 6, DATE: 7, TIMESTAMP: 8, FLOAT: 9, DOUBLE: 10,
  STRING: 11, SYMBOL: 12, UUID: 19, IPV4: 25, VARCHAR: 26,
};

/** Leaves of a literal in row-major order, and its shape; every sub-array of a level has the same shape. */
function collectLeaves(expr: ArrayExpr, depth: number, shape: number[], leaves: Expr[]): void {
  if (depth >= arrayDimsMax) throw sqlSemanticError(`too many array dimensions [max=${arrayDimsMax}]`, expr.position);
  const known = shape[depth];
  if (known === undefined) shape[depth] = expr.elements.length;
  else if (known !== expr.elements.length) throw sqlSemanticError('mismatched array shape', expr.position);
  const first = expr.elements[0];
  const nested = first?.kind === 'array';
  for (const element of expr.elements) {
    if ((element.kind === 'array') !== nested) throw sqlSemanticError('mixed array and non-array elements', element.position);
    if (element.kind === 'array') collectLeaves(element, depth + 1, shape, leaves);
    else leaves.push(element);
  }
  if (nested === false && shape.length > depth + 1) throw sqlSemanticError('mismatched array shape', expr.position);
}

export function bindArrayLiteral(expr: ArrayExpr, bindElement: BindElement): BoundExpr {
  const shape: number[] = [];
  const leaves: Expr[] = [];
  collectLeaves(expr, 0, shape, leaves);
  const type = arrayTypeOf(shape.length);
  const elements = leaves.map((leaf) => {
    const bound = bindElement(leaf);
    if (!isNumericType(bound.type) && bound.type !== 'NULL') {
      throw sqlSemanticError(`unsupported array element type [type=${typeDisplayName(bound.type)}]`, leaf.position);
    }
    return bound;
  });
  if (elements.every((element) => element.kind === 'constant')) {
    const values = elements.map((element) => (element.kind === 'constant' && typeof element.value === 'number' ? element.value : NaN));
    return { kind: 'constant', type, value: encodeDoubleArray(shape, values), position: expr.position };
  }
  return {
    kind: 'call', type, name: 'array', args: elements, position: expr.position,
    emit: (args, constant) => `rt.arrayOf(${constant(shape)}, [${args.join(', ')}])`,
  };
}

function checkIndexArgument(arg: BoundExpr, dim: number): void {
  if (arg.type !== 'INT' && arg.type !== 'SHORT' && arg.type !== 'BYTE' && arg.type !== 'NULL') {
    throw sqlSemanticError(`invalid type for array access [type=${QUESTDB_TYPE_CODES[arg.type] ?? 0}]`, arg.position);
  }
  if (arg.kind === 'constant' && typeof arg.value === 'number' && arg.value < 1) {
    throw sqlSemanticError(`array index must be positive [dim=${dim}, index=${arg.value}]`, arg.position);
  }
}

function checkSliceBound(arg: BoundExpr, dim: number, which: 'lowerBound' | 'upperBound', position: number): void {
  if (arg.type !== 'INT' && arg.type !== 'SHORT' && arg.type !== 'BYTE' && arg.type !== 'NULL') {
    throw sqlSemanticError(`invalid type for array access [type=${QUESTDB_TYPE_CODES[arg.type] ?? 0}]`, arg.position);
  }
  if (arg.kind === 'constant' && typeof arg.value === 'number' && arg.value < 1) {
    throw sqlSemanticError(`array slice bounds must be positive [dim=${dim}, ${which}=${arg.value}]`, position);
  }
}

/** A NULL index or bound is an INT NULL (NaN in the expression domain), as the runtime helpers expect. */
function asIndex(arg: BoundExpr): BoundExpr {
  return arg.type === 'NULL' ? { kind: 'constant', type: 'INT', value: NaN, position: arg.position } : arg;
}

function isSlice(expr: Expr): expr is Extract<Expr, { kind: 'call' }> {
  return expr.kind === 'call' && expr.name === ':';
}

export function bindArrayAccess(expr: ArrayIndexExpr, bindElement: BindElement): BoundExpr {
  const array = bindElement(expr.operand);
  if (!isArrayType(array.type)) {
    throw sqlSemanticError(`there is no matching operator \`[]\` with the argument types: ${typeDisplayName(array.type)}[]`, expr.position);
  }
  const dims = arrayTypeDimCount(array.type);
  if (expr.indexes.length > dims) {
    const extra = expr.indexes[dims];
    throw sqlSemanticError(`too many array access arguments [nArgs=${expr.indexes.length}, nDims=${dims}]`, extra.position);
  }
  const kinds: number[] = [];
  const values: BoundExpr[] = [];
  const positions: number[] = [];
  expr.indexes.forEach((index, k) => {
    positions.push(index.position);
    if (isSlice(index)) {
      kinds.push(ACCESS_SLICE);
      const lo = bindElement(index.args[0]);
      checkSliceBound(lo, k + 1, 'lowerBound', index.position);
      values.push(asIndex(lo));
      const hiExpr = index.args[1];
      const hi: BoundExpr = hiExpr === undefined ? { kind: 'constant', type: 'INT', value: NaN, position: index.position } : bindElement(hiExpr);
      if (hiExpr !== undefined) checkSliceBound(hi, k + 1, 'upperBound', index.position);
      values.push(asIndex(hi));
    } else {
      kinds.push(ACCESS_INDEX);
      const bound = bindElement(index);
      checkIndexArgument(bound, k + 1);
      values.push(asIndex(bound));
    }
  });
  const resultDims = dims - kinds.filter((kind) => kind === ACCESS_INDEX).length;
  if (resultDims === 0) {
    return {
      kind: 'call', type: 'DOUBLE', name: '[]', args: [array, ...values], position: expr.position,
      emit: ([a, ...indexes], constant) => `rt.arrayElement(${a}, [${indexes.join(', ')}], ${constant(positions)})`,
    };
  }
  return {
    kind: 'call', type: arrayTypeOf(resultDims), name: '[]', args: [array, ...values], position: expr.position,
    emit: ([a, ...rest], constant) => `rt.arrayAccess(${a}, ${constant(kinds)}, [${rest.join(', ')}], ${constant(positions)})`,
  };
}
