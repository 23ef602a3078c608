// AND, OR, NOT over booleans: QuestDB's logic is two-valued (a comparison with NULL is false, so NOT of it is true).
import type { ScalarFunctionDef } from './signature.js';

export const LOGICAL_FUNCTIONS: readonly ScalarFunctionDef[] = [
  { name: 'and', args: ['BOOLEAN', 'BOOLEAN'], returns: 'BOOLEAN', emit: ([a, b]) => `(${a} && ${b})` },
  { name: 'or', args: ['BOOLEAN', 'BOOLEAN'], returns: 'BOOLEAN', emit: ([a, b]) => `(${a} || ${b})` },
  { name: 'not', args: ['BOOLEAN'], returns: 'BOOLEAN', emit: ([a]) => `(!${a})` },
];
