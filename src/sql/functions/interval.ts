// INTERVAL functions: interval(lo, hi) from two timestamps (lo > hi is QuestDB's "invalid interval boundaries";
// a null bound gives a null interval), interval_start and interval_end.
import type { ScalarFunctionDef } from './signature.js';

export const INTERVAL_FUNCTIONS: readonly ScalarFunctionDef[] = [
  {
    name: 'interval', args: ['TIMESTAMP', 'TIMESTAMP'], returns: 'INTERVAL',
    prepare: (_args, position) => position,
    emit: ([lo, hi], constant, _types, position) => `rt.makeInterval(${lo}, ${hi}, ${constant(position)})`,
  },
  { name: 'interval_start', args: ['INTERVAL'], returns: 'TIMESTAMP', emit: ([value]) => `rt.intervalBound(${value}, 0)` },
  { name: 'interval_end', args: ['INTERVAL'], returns: 'TIMESTAMP', emit: ([value]) => `rt.intervalBound(${value}, 1)` },
];
