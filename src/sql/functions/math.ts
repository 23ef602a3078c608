// Math functions of the first slice: abs, round (half away from zero, optional scale), floor, ceil.
import type { ScalarFunctionDef } from './signature.js';
import type { ValueType } from '../../types/column-type.js';

const sameNumeric = (types: readonly ValueType[]): ValueType => (types[0] === 'NULL' ? 'DOUBLE' : (types[0] ?? 'DOUBLE'));

export const MATH_FUNCTIONS: readonly ScalarFunctionDef[] = [
  { name: 'abs', args: ['NUMERIC'], returns: sameNumeric, emit: ([a]) => `Math.abs(${a})` },
  { name: 'round', args: ['DOUBLE'], returns: 'DOUBLE', emit: ([a]) => `rt.roundScale(${a}, 0)` },
  { name: 'round', args: ['DOUBLE', 'INT'], returns: 'DOUBLE', emit: ([a, b]) => `rt.roundScale(${a}, ${b})` },
  { name: 'floor', args: ['DOUBLE'], returns: 'DOUBLE', emit: ([a]) => `Math.floor(${a})` },
  { name: 'ceil', args: ['DOUBLE'], returns: 'DOUBLE', emit: ([a]) => `Math.ceil(${a})` },
  { name: 'ceiling', args: ['DOUBLE'], returns: 'DOUBLE', emit: ([a]) => `Math.ceil(${a})` },
];
