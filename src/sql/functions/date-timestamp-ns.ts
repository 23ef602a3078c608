// Date functions and arithmetic over TIMESTAMP_NS, as QuestDB's nanosecond timestamp driver gives them:
// dateadd, timestamp_floor/ceil, date_trunc, to_timezone, to_utc and ns ± integer keep the ns type; datediff and
// ns - ns are LONG; now_ns / systimestamp_ns. The calendar work reuses the µs helpers on the µs floor and carries
// the sub-µs remainder. Calendar parts (year, hour, extract, ...) take the ns value through its cast to TIMESTAMP.
import type { ScalarFunctionDef } from './signature.js';
import { checkPeriod, prepareTruncUnit, prepareUnit } from './date-arith.js';
import { prepareZoneArgument } from './date-format.js';

export const DATE_TIMESTAMP_NS_FUNCTIONS: readonly ScalarFunctionDef[] = [
  // Integers added to a ns timestamp are nanoseconds; the difference of two is a LONG of nanoseconds.
  { name: '+', args: ['TIMESTAMP_NS', 'LONG'], returns: 'TIMESTAMP_NS', emit: ([a, b]) => `(${a} + ${b})` },
  { name: '+', args: ['LONG', 'TIMESTAMP_NS'], returns: 'TIMESTAMP_NS', emit: ([a, b]) => `(${a} + ${b})` },
  { name: '-', args: ['TIMESTAMP_NS', 'LONG'], returns: 'TIMESTAMP_NS', emit: ([a, b]) => `(${a} - ${b})` },
  { name: '-', args: ['TIMESTAMP_NS', 'TIMESTAMP_NS'], returns: 'LONG', emit: ([a, b]) => `(${a} - ${b})` },
  { name: 'now_ns', args: [], returns: 'TIMESTAMP_NS', emit: () => '(rt.queryNow * 1000)', volatile: true },
  { name: 'systimestamp_ns', args: [], returns: 'TIMESTAMP_NS', emit: () => 'rt.systemNanos()', volatile: true },
  {
    name: 'dateadd', args: ['TEXT', 'LONG', 'TIMESTAMP_NS'], returns: 'TIMESTAMP_NS', prepare: checkPeriod,
    emit: ([unit, n, ts]) => `rt.dateAddNs(${unit}, ${n}, ${ts})`,
  },
  {
    name: 'datediff', args: ['TEXT', 'TIMESTAMP_NS', 'TIMESTAMP_NS'], returns: 'LONG', prepare: checkPeriod,
    emit: ([unit, a, b]) => `rt.dateDiffNs(${unit}, ${a}, ${b})`,
  },
  {
    name: 'timestamp_floor', args: ['TEXT', 'TIMESTAMP_NS'], returns: 'TIMESTAMP_NS', prepare: prepareUnit,
    emit: ([, ts], constant, _types, prepared) => `rt.nsOfMicros(rt.floorUnit(${constant(prepared)}, rt.microsOfNs(${ts})), ${ts})`,
  },
  {
    name: 'timestamp_ceil', args: ['TEXT', 'TIMESTAMP_NS'], returns: 'TIMESTAMP_NS', prepare: prepareUnit,
    emit: ([, ts], constant, _types, prepared) => `rt.ceilNs(${constant(prepared)}, ${ts})`,
  },
  {
    name: 'date_trunc', args: ['TEXT', 'TIMESTAMP_NS'], returns: 'TIMESTAMP_NS', prepare: prepareTruncUnit,
    emit: ([, ts], constant, _types, prepared) => `rt.nsOfMicros(rt.truncate(${constant(prepared)}, rt.microsOfNs(${ts})), ${ts})`,
  },
  {
    name: 'to_timezone', args: ['TIMESTAMP_NS', 'TEXT'], returns: 'TIMESTAMP_NS', prepare: prepareZoneArgument,
    emit: ([ts, name], constant, _types, prepared) => `rt.shiftNs(${ts}, rt.toTimezone${prepared === undefined ? `Named(rt.microsOfNs(${ts}), ${name})` : `(${constant(prepared)}, rt.microsOfNs(${ts}))`})`,
  },
  {
    name: 'to_utc', args: ['TIMESTAMP_NS', 'TEXT'], returns: 'TIMESTAMP_NS', prepare: prepareZoneArgument,
    emit: ([ts, name], constant, _types, prepared) => `rt.shiftNs(${ts}, rt.toUtc${prepared === undefined ? `Named(rt.microsOfNs(${ts}), ${name})` : `(${constant(prepared)}, rt.microsOfNs(${ts}))`})`,
  },
];
