// Statistical aggregates as data: standard deviation and variance (sample and population), compensated
// sums, and approx_percentile. All return DOUBLE; kernels live in exec/aggregates/.
import type { AggregateFunctionDef } from '../signature.js';
import type { BoundExpr } from '../../bind/bound.js';
import { sqlSemanticError } from '../../../core/errors.js';

/** approx_percentile's percentile (a constant in [0, 1]) and optional precision (a constant 0-5). */
function percentileParams(args: readonly BoundExpr[], position: number): readonly unknown[] {
  const percentile = args[1];
  if (percentile?.kind !== 'constant' || typeof percentile.value !== 'number') {
    throw sqlSemanticError('percentile must be a constant', percentile?.position ?? position);
  }
  if (!(percentile.value >= 0 && percentile.value <= 1)) {
    throw sqlSemanticError('percentile must be between 0.0 and 1.0', percentile.position);
  }
  const precision = args[2];
  if (precision !== undefined) {
    if (precision.kind !== 'constant' || typeof precision.value !== 'number') throw sqlSemanticError('precision must be a constant', precision.position);
    if (!(precision.value >= 0 && precision.value <= 5)) throw sqlSemanticError('precision must be between 0 and 5', position);
  }
  return [percentile.value];
}

export const STATS_AGGREGATES: readonly AggregateFunctionDef[] = [
  { name: 'stddev', args: ['NUMERIC'], returns: 'DOUBLE', kind: 'stddev_samp' },
  { name: 'stddev_samp', args: ['NUMERIC'], returns: 'DOUBLE', kind: 'stddev_samp' },
  { name: 'stddev_pop', args: ['NUMERIC'], returns: 'DOUBLE', kind: 'stddev_pop' },
  { name: 'variance', args: ['NUMERIC'], returns: 'DOUBLE', kind: 'var_samp' },
  { name: 'var_samp', args: ['NUMERIC'], returns: 'DOUBLE', kind: 'var_samp' },
  { name: 'var_pop', args: ['NUMERIC'], returns: 'DOUBLE', kind: 'var_pop' },
  { name: 'ksum', args: ['NUMERIC'], returns: 'DOUBLE', kind: 'ksum' },
  { name: 'nsum', args: ['NUMERIC'], returns: 'DOUBLE', kind: 'nsum' },
  { name: 'approx_percentile', args: ['NUMERIC', 'NUMERIC'], returns: 'DOUBLE', kind: 'approx_percentile', params: percentileParams },
  { name: 'approx_percentile', args: ['NUMERIC', 'NUMERIC', 'INT'], returns: 'DOUBLE', kind: 'approx_percentile', params: percentileParams },
];
