// + - * / % and unary minus over numbers (NaN = null propagates through JS arithmetic), plus
// timestamp arithmetic. Integer division truncates toward zero and yields null on division by zero.
import type { ScalarFunctionDef } from './signature.js';
import type { ValueType } from '../../types/column-type.js';
import { widenNumeric } from '../../types/casts.js';

const isIntegral = (type: ValueType): boolean => type === 'BYTE' || type === 'SHORT' || type === 'INT' || type === 'LONG';
const widen = (types: readonly ValueType[]): ValueType => widenNumeric(types[0] ?? 'INT', types[1] ?? 'INT');

export const ARITHMETIC_FUNCTIONS: readonly ScalarFunctionDef[] = [
  { name: '+', args: ['NUMERIC', 'NUMERIC'], returns: widen, emit: ([a, b]) => `(${a} + ${b})` },
  { name: '-', args: ['NUMERIC', 'NUMERIC'], returns: widen, emit: ([a, b]) => `(${a} - ${b})` },
  {
    name: '*', args: ['NUMERIC', 'NUMERIC'], returns: widen,
    emit: ([a, b], _c, types) => (widen(types) === 'INT' ? `rt.imul(${a}, ${b})` : `(${a} * ${b})`),
  },
  {
    name: '/', args: ['NUMERIC', 'NUMERIC'], returns: widen,
    emit: ([a, b], _c, types) => (isIntegral(widen(types)) ? `rt.idiv(${a}, ${b})` : `(${a} / ${b})`),
  },
  {
    name: '%', args: ['NUMERIC', 'NUMERIC'], returns: widen,
    emit: ([a, b], _c, types) => (isIntegral(widen(types)) ? `rt.imod(${a}, ${b})` : `rt.fmod(${a}, ${b})`),
  },
  { name: 'neg', args: ['NUMERIC'], returns: (types) => widenNumeric(types[0] ?? 'INT', 'INT'), emit: ([a]) => `(-${a})` },
  { name: '+', args: ['TIMESTAMP', 'LONG'], returns: 'TIMESTAMP', emit: ([a, b]) => `(${a} + ${b})` },
  { name: '+', args: ['LONG', 'TIMESTAMP'], returns: 'TIMESTAMP', emit: ([a, b]) => `(${a} + ${b})` },
  { name: '-', args: ['TIMESTAMP', 'LONG'], returns: 'TIMESTAMP', emit: ([a, b]) => `(${a} - ${b})` },
  { name: '-', args: ['TIMESTAMP', 'TIMESTAMP'], returns: 'LONG', emit: ([a, b]) => `(${a} - ${b})` },
  { name: '+', args: ['DATE', 'LONG'], returns: 'DATE', emit: ([a, b]) => `(${a} + ${b})` },
  { name: '-', args: ['DATE', 'LONG'], returns: 'DATE', emit: ([a, b]) => `(${a} - ${b})` },
  { name: '-', args: ['DATE', 'DATE'], returns: 'LONG', emit: ([a, b]) => `(${a} - ${b})` },
];
