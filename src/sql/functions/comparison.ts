// Comparisons. `=` and `!=` treat NULL as a value (NULL = NULL is true, QuestDB's null test);
// ordered comparisons with a NULL operand are false, which JS gives for NaN and is emitted for text.
import { isArrayType } from '../../types/double-array.js';
import type { ScalarFunctionDef } from './signature.js';
import type { ValueType } from '../../types/column-type.js';
import { isTextHeldType } from '../../types/column-type.js';

const numericEq = (a: string, b: string): string => `rt.eqNum(${a}, ${b})`;

function ordered(op: string): ScalarFunctionDef[] {
  return [
    { name: op, args: ['NUMERIC', 'NUMERIC'], returns: 'BOOLEAN', emit: ([a, b]) => `(${a} ${op} ${b})` },
    { name: op, args: ['TIMESTAMP', 'TIMESTAMP'], returns: 'BOOLEAN', emit: ([a, b]) => `(${a} ${op} ${b})` },
    { name: op, args: ['TIMESTAMP_NS', 'TIMESTAMP_NS'], returns: 'BOOLEAN', emit: ([a, b]) => `(${a} ${op} ${b})` },
    { name: op, args: ['DATE', 'DATE'], returns: 'BOOLEAN', emit: ([a, b]) => `(${a} ${op} ${b})` },
    { name: op, args: ['TEXT', 'TEXT'], returns: 'BOOLEAN', emit: ([a, b]) => `rt.cmpText(${a}, ${b}, '${op}')` },
    { name: op, args: ['IPV4', 'IPV4'], returns: 'BOOLEAN', emit: ([a, b]) => `(${a} ${op} ${b})` },
  ];
}

function equality(name: string, negate: boolean): ScalarFunctionDef[] {
  const wrap = (body: string): string => (negate ? `!${body}` : body);
  return [
    { name, args: ['NUMERIC', 'NUMERIC'], returns: 'BOOLEAN', emit: ([a, b]) => wrap(numericEq(a, b)) },
    { name, args: ['TIMESTAMP', 'TIMESTAMP'], returns: 'BOOLEAN', emit: ([a, b]) => wrap(numericEq(a, b)) },
    { name, args: ['TIMESTAMP_NS', 'TIMESTAMP_NS'], returns: 'BOOLEAN', emit: ([a, b]) => wrap(numericEq(a, b)) },
    { name, args: ['DATE', 'DATE'], returns: 'BOOLEAN', emit: ([a, b]) => wrap(numericEq(a, b)) },
    { name, args: ['IPV4', 'IPV4'], returns: 'BOOLEAN', emit: ([a, b]) => wrap(numericEq(a, b)) },
    { name, args: ['TEXT', 'TEXT'], returns: 'BOOLEAN', emit: ([a, b]) => wrap(`(${a} === ${b})`) },
    { name, args: ['UUID', 'UUID'], returns: 'BOOLEAN', emit: ([a, b]) => wrap(`(${a} === ${b})`) },
    { name, args: ['BOOLEAN', 'BOOLEAN'], returns: 'BOOLEAN', emit: ([a, b]) => wrap(`(${a} === ${b})`) },
    { name, args: ['BINARY', 'BINARY'], returns: 'BOOLEAN', emit: ([a, b]) => wrap(`rt.eqBinary(${a}, ${b})`) },
  ];
}

export const COMPARISON_FUNCTIONS: readonly ScalarFunctionDef[] = [
  ...equality('=', false),
  ...equality('!=', true),
  ...ordered('<'),
  ...ordered('<='),
  ...ordered('>'),
  ...ordered('>='),
  { name: 'isnull', args: ['ANY'], returns: 'BOOLEAN', emit: ([a], _c, types) => isNullTest(a, types[0]) },
  { name: 'isnotnull', args: ['ANY'], returns: 'BOOLEAN', emit: ([a], _c, types) => `!${isNullTest(a, types[0])}` },
];

function isNullTest(arg: string, type: ValueType | undefined): string {
  if (type === 'BOOLEAN') return 'false';
  if (type === 'BYTE' || type === 'SHORT') return 'false';
  if (type === 'STRING' || type === 'VARCHAR' || type === 'SYMBOL' || type === 'CHAR' || type === 'BINARY' || type === 'NULL' || (type !== undefined && (isTextHeldType(type) || isArrayType(type)))) {
    return `(${arg} === null)`;
  }
  return `rt.isNaNum(${arg})`;
}
