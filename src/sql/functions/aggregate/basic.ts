// The aggregate functions of the first slice, as data; their kernels live in exec/aggregate-kernels.ts.
import type { AggregateFunctionDef } from '../signature.js';
import type { ValueType } from '../../../types/column-type.js';
import { DECIMAL_AGGREGATES } from './decimal.js';

const sumType = (types: readonly ValueType[]): ValueType => (types[0] === 'FLOAT' || types[0] === 'DOUBLE' ? 'DOUBLE' : 'LONG');
const same = (types: readonly ValueType[]): ValueType => types[0] ?? 'DOUBLE';

export const BASIC_AGGREGATES: readonly AggregateFunctionDef[] = [
  { name: 'count', args: [], returns: 'LONG', kind: 'count' },
  { name: 'count', args: ['ANY'], returns: 'LONG', kind: 'count_col' },
  { name: 'sum', args: ['NUMERIC'], returns: sumType, kind: 'sum' },
  { name: 'avg', args: ['NUMERIC'], returns: 'DOUBLE', kind: 'avg' },
  ...DECIMAL_AGGREGATES,
  { name: 'min', args: ['ANY'], returns: same, kind: 'min' },
  { name: 'max', args: ['ANY'], returns: same, kind: 'max' },
  { name: 'first', args: ['ANY'], returns: same, kind: 'first' },
  { name: 'last', args: ['ANY'], returns: same, kind: 'last' },
];
