// LONG256 functions: rnd_long256() and equality (values are canonical hex text, so equal values are equal strings).
import type { ScalarFunctionDef } from './signature.js';

export const LONG256_FUNCTIONS: readonly ScalarFunctionDef[] = [
  { name: 'rnd_long256', args: [], returns: 'LONG256', volatile: true, emit: () => 'rt.rndLong256()' },
  { name: '=', args: ['LONG256', 'LONG256'], returns: 'BOOLEAN', emit: ([a, b]) => `(${a} === ${b})` },
  { name: '!=', args: ['LONG256', 'LONG256'], returns: 'BOOLEAN', emit: ([a, b]) => `(${a} !== ${b})` },
];
