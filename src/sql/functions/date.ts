// Date/time functions of the first slice: now() (fixed per query), systimestamp().
import type { ScalarFunctionDef } from './signature.js';

export const DATE_FUNCTIONS: readonly ScalarFunctionDef[] = [
  { name: 'now', args: [], returns: 'TIMESTAMP', emit: () => 'rt.queryNow', volatile: true },
  { name: 'systimestamp', args: [], returns: 'TIMESTAMP', emit: () => 'rt.systemMicros()', volatile: true },
];
