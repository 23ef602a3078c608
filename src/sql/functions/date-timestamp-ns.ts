// Date functions and arithmetic over TIMESTAMP_NS, as QuestDB's nanosecond timestamp driver gives them:
// dateadd, timestamp_floor/ceil, date_trunc, to_timezone, to_utc and ns ± integer keep the ns type; datediff and
// ns - ns are LONG; now_ns / systimestamp_ns. The calendar work reuses the µs helpers on the µs floor and carries
// the sub-µs remainder. Calendar parts (year, hour, extract, ...) take the ns value through its cast to TIMESTAMP.
import type { Emit, ScalarFunctionDef } from './signature.js';
import { checkPeriod, prepareTruncUnit, prepareUnit } from './date-arith.js';
import { prepareZoneArgument } from './date-format.js';

/** Helper names: '' for the double domain of `emit`, 'X' for the BigInt domain of `emitExact`. */
type Domain = '' | 'X';

/** A µs floor or truncation applied to the ns value's µs floor, back in ns. */
function floorEmit(helper: 'floorUnit' | 'truncate', domain: Domain): Emit {
  return ([, ts], constant, _types, prepared) => `rt.nsOfMicros${domain}(rt.${helper}(${constant(prepared)}, rt.microsOfNs${domain}(${ts})), ${ts})`;
}

/** A time-zone shift computed on the µs floor and applied to the whole ns value. */
function zoneEmit(helper: 'toTimezone' | 'toUtc', domain: Domain): Emit {
  return ([ts, name], constant, _types, prepared) => {
    const micros = `rt.microsOfNs${domain}(${ts})`;
    const shifted = prepared === undefined ? `rt.${helper}Named(${micros}, ${name})` : `rt.${helper}(${constant(prepared)}, ${micros})`;
    return `rt.shiftNs${domain}(${ts}, ${shifted})`;
  };
}

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
    emitExact: ([unit, n, ts]) => `rt.dateAddNsX(${unit}, ${n}, ${ts})`,
  },
  {
    name: 'datediff', args: ['TEXT', 'TIMESTAMP_NS', 'TIMESTAMP_NS'], returns: 'LONG', prepare: checkPeriod,
    emit: ([unit, a, b]) => `rt.dateDiffNs(${unit}, ${a}, ${b})`,
    emitExact: ([unit, a, b]) => `rt.dateDiffNsX(${unit}, ${a}, ${b})`,
  },
  { name: 'timestamp_floor', args: ['TEXT', 'TIMESTAMP_NS'], returns: 'TIMESTAMP_NS', prepare: prepareUnit, emit: floorEmit('floorUnit', ''), emitExact: floorEmit('floorUnit', 'X') },
  {
    name: 'timestamp_ceil', args: ['TEXT', 'TIMESTAMP_NS'], returns: 'TIMESTAMP_NS', prepare: prepareUnit,
    emit: ([, ts], constant, _types, prepared) => `rt.ceilNs(${constant(prepared)}, ${ts})`,
    emitExact: ([, ts], constant, _types, prepared) => `rt.ceilNsX(${constant(prepared)}, ${ts})`,
  },
  { name: 'date_trunc', args: ['TEXT', 'TIMESTAMP_NS'], returns: 'TIMESTAMP_NS', prepare: prepareTruncUnit, emit: floorEmit('truncate', ''), emitExact: floorEmit('truncate', 'X') },
  { name: 'to_timezone', args: ['TIMESTAMP_NS', 'TEXT'], returns: 'TIMESTAMP_NS', prepare: prepareZoneArgument, emit: zoneEmit('toTimezone', ''), emitExact: zoneEmit('toTimezone', 'X') },
  { name: 'to_utc', args: ['TIMESTAMP_NS', 'TEXT'], returns: 'TIMESTAMP_NS', prepare: prepareZoneArgument, emit: zoneEmit('toUtc', ''), emitExact: zoneEmit('toUtc', 'X') },
];
