// DOUBLE[] functions and operators (QuestDB 9): array_sum, array_avg, array_count, array_position,
// insertion_point, array_cum_sum, dim_length, transpose, matmul, element-wise + - * / (array with array of a
// broadcastable shape, or with a scalar) and = / != between arrays. Dimension rules QuestDB checks when it
// builds the function are checked at bind time, with its texts, at the array argument's position.
import type { ArgType, ScalarFunctionDef } from './signature.js';
import type { BoundExpr } from '../bind/bound.js';
import type { ValueType } from '../../types/column-type.js';
import { ARRAY_OP_ADD, ARRAY_OP_DIVIDE, ARRAY_OP_MULTIPLY, ARRAY_OP_SUBTRACT, arrayDimsMax, arrayTypeDimCount, arrayTypeOf, isArrayType } from '../../types/double-array.js';
import { sqlSemanticError } from '../../core/errors.js';

/** Dimensions of an argument's type; a bare NULL counts as one dimension. */
function dimsOf(type: ValueType | undefined): number {
  return type !== undefined && isArrayType(type) ? arrayTypeDimCount(type) : 1;
}

function requireOneDimension(args: readonly BoundExpr[]): undefined {
  const array = args[0];
  if (array !== undefined && dimsOf(array.type) !== 1) throw sqlSemanticError('array is not one-dimensional', array.position);
  return undefined;
}

const widest = (types: readonly ValueType[]): ValueType => arrayTypeOf(Math.max(...types.map((type) => (isArrayType(type) ? arrayTypeDimCount(type) : 0)), 1));

const OPERATORS: readonly (readonly [string, number])[] = [['+', ARRAY_OP_ADD], ['-', ARRAY_OP_SUBTRACT], ['*', ARRAY_OP_MULTIPLY], ['/', ARRAY_OP_DIVIDE]];

function arithmetic(name: string, op: number): ScalarFunctionDef[] {
  const both: readonly ArgType[] = ['ARRAY', 'ARRAY'];
  return [
    { name, args: both, returns: widest, prepare: (args) => args[0]?.position, emit: ([a, b], constant, _types, position) => `rt.arrayOp(${a}, ${b}, ${op}, ${constant(position)})` },
    { name, args: ['ARRAY', 'NUMERIC'], returns: widest, emit: ([a, b]) => `rt.arrayScalarOp(${a}, ${b}, ${op}, false)` },
    { name, args: ['NUMERIC', 'ARRAY'], returns: widest, emit: ([a, b]) => `rt.arrayScalarOp(${b}, ${a}, ${op}, true)` },
  ];
}

function checkDimArgument(args: readonly BoundExpr[]): { readonly dims: number; readonly position: number } {
  const [array, dim] = args;
  const dims = dimsOf(array?.type);
  const position = dim?.position ?? 0;
  if (dim?.kind === 'constant' && typeof dim.value === 'number' && dim.value === dim.value) {
    if (dim.value < 1 || dim.value > arrayDimsMax) throw sqlSemanticError(`array dimension out of bounds [dim=${dim.value}]`, position);
    if (dim.value > dims) throw sqlSemanticError(`array dimension out of bounds [dim=${dim.value}, dims=${dims}]`, position);
  }
  return { dims, position };
}

function checkMatmulArguments(args: readonly BoundExpr[]): number {
  const [left, right] = args;
  const leftDims = dimsOf(left?.type);
  if (leftDims > 2) throw sqlSemanticError('left array is not one or two-dimensional', left?.position ?? 0);
  if (dimsOf(right?.type) > 2) throw sqlSemanticError('right array is not one or two-dimensional', right?.position ?? 0);
  return left?.position ?? 0;
}

export const ARRAY_FUNCTIONS: readonly ScalarFunctionDef[] = [
  { name: 'array_sum', args: ['ARRAY'], returns: 'DOUBLE', emit: ([a]) => `rt.arraySum(${a})` },
  { name: 'array_avg', args: ['ARRAY'], returns: 'DOUBLE', emit: ([a]) => `rt.arrayAvg(${a})` },
  { name: 'array_count', args: ['ARRAY'], returns: 'INT', emit: ([a]) => `rt.arrayCount(${a})` },
  { name: 'array_position', args: ['ARRAY', 'DOUBLE'], returns: 'INT', prepare: requireOneDimension, emit: ([a, v]) => `rt.arrayPosition(${a}, ${v})` },
  { name: 'insertion_point', args: ['ARRAY', 'DOUBLE'], returns: 'INT', prepare: requireOneDimension, emit: ([a, v]) => `rt.insertionPoint(${a}, ${v}, false)` },
  { name: 'insertion_point', args: ['ARRAY', 'DOUBLE', 'BOOLEAN'], returns: 'INT', prepare: requireOneDimension, emit: ([a, v, ahead]) => `rt.insertionPoint(${a}, ${v}, ${ahead})` },
  { name: 'array_cum_sum', args: ['ARRAY'], returns: 'DOUBLE[]', emit: ([a]) => `rt.arrayCumSum(${a})` },
  {
    name: 'dim_length', args: ['ARRAY', 'INT'], returns: 'INT', prepare: checkDimArgument,
    emit: ([a, d], constant, _types, prepared) => {
      const { dims, position } = prepared as ReturnType<typeof checkDimArgument>;
      return `rt.dimLength(${a}, ${d}, ${constant(dims)}, ${constant(position)})`;
    },
  },
  { name: 'transpose', args: ['ARRAY'], returns: (types) => arrayTypeOf(dimsOf(types[0])), emit: ([a]) => `rt.transpose(${a})` },
  { name: 'matmul', args: ['ARRAY', 'ARRAY'], returns: 'DOUBLE[][]', prepare: checkMatmulArguments, emit: ([a, b], constant, _types, position) => `rt.matmul(${a}, ${b}, ${constant(position)})` },
  ...OPERATORS.flatMap(([name, op]) => arithmetic(name, op)),
  // Negation multiplies by -1, so a 0 element becomes -0 as with scalar negation.
  { name: 'neg', args: ['ARRAY'], returns: (types) => arrayTypeOf(dimsOf(types[0])), emit: ([a]) => `rt.arrayScalarOp(${a}, -1, ${ARRAY_OP_MULTIPLY}, false)` },
  { name: '=', args: ['ARRAY', 'ARRAY'], returns: 'BOOLEAN', emit: ([a, b]) => `rt.arrayEquals(${a}, ${b})` },
  { name: '!=', args: ['ARRAY', 'ARRAY'], returns: 'BOOLEAN', emit: ([a, b]) => `!rt.arrayEquals(${a}, ${b})` },
];
