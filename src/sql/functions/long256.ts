// LONG256 functions: rnd_long256(), to_long256(l0, l1, l2, l3) from four longs (l0 least significant; all four
// null is null) and equality (values are canonical hex text, so equal values are equal strings).
import type { ScalarFunctionDef } from './signature.js';

export const LONG256_FUNCTIONS: readonly ScalarFunctionDef[] = [
  { name: 'rnd_long256', args: [], returns: 'LONG256', volatile: true, emit: () => 'rt.rndLong256()' },
  { name: 'to_long256', args: ['LONG', 'LONG', 'LONG', 'LONG'], returns: 'LONG256', emit: ([a, b, c, d]) => `rt.toLong256(${a}, ${b}, ${c}, ${d})` },
  { name: '=', args: ['LONG256', 'LONG256'], returns: 'BOOLEAN', emit: ([a, b]) => `(${a} === ${b})` },
  { name: '!=', args: ['LONG256', 'LONG256'], returns: 'BOOLEAN', emit: ([a, b]) => `(${a} !== ${b})` },
];
