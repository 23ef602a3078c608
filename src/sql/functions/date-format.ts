// Timestamps to and from text and across time zones: to_str(ts, fmt) STRING, to_timestamp(text[, fmt])
// TIMESTAMP, to_date(text, fmt) DATE, to_timezone(ts, tz) (UTC → local wall clock), to_utc(ts, tz)
// (local → UTC) and sysdate(). Constant patterns and zones are compiled once at bind time; a text that does
// not match its pattern is NULL, an unknown constant zone is an error.
import type { ScalarFunctionDef } from './signature.js';
import type { BoundExpr } from '../bind/bound.js';
import { compileTimestampPattern } from '../../types/timestamp.js';
import { resolveTimeZone } from '../../types/time-zone.js';
import { constantText } from './constant-args.js';
import { sqlSemanticError } from '../../core/errors.js';

/** The compiled pattern of a constant format argument, or undefined when the format varies per row. */
function preparePattern(index: number): (args: readonly BoundExpr[]) => unknown {
  return (args) => {
    const text = constantText(args[index]);
    return typeof text === 'string' ? compileTimestampPattern(text) : undefined;
  };
}

export function prepareZoneArgument(args: readonly BoundExpr[], position: number): unknown {
  const text = constantText(args[1]);
  if (typeof text !== 'string') return undefined;
  const zone = resolveTimeZone(text);
  if (zone === undefined) throw sqlSemanticError(`invalid timezone: ${text}`, args[1]?.position ?? position);
  return zone;
}

export const DATE_FORMAT_FUNCTIONS: readonly ScalarFunctionDef[] = [
  {
    name: 'to_str', args: ['TIMESTAMP', 'TEXT'], returns: 'STRING', prepare: preparePattern(1),
    emit: ([ts, fmt], constant, _types, pattern) =>
      pattern === undefined ? `rt.formatPatternText(${ts}, ${fmt})` : `rt.formatPattern(${constant(pattern)}, ${ts})`,
  },
  {
    name: 'to_timestamp', args: ['TEXT', 'TEXT'], returns: 'TIMESTAMP', prepare: preparePattern(1),
    emit: ([text, fmt], constant, _types, pattern) =>
      pattern === undefined ? `rt.parsePatternText(${text}, ${fmt})` : `rt.parsePattern(${constant(pattern)}, ${text})`,
  },
  { name: 'to_timestamp', args: ['TEXT'], returns: 'TIMESTAMP', emit: ([text]) => `rt.parseIsoOrNull(${text})` },
  {
    name: 'to_date', args: ['TEXT', 'TEXT'], returns: 'DATE', prepare: preparePattern(1),
    emit: ([text, fmt], constant, _types, pattern) =>
      `rt.microsToMillis(${pattern === undefined ? `rt.parsePatternText(${text}, ${fmt})` : `rt.parsePattern(${constant(pattern)}, ${text})`})`,
  },
  {
    name: 'to_timezone', args: ['TIMESTAMP', 'TEXT'], returns: 'TIMESTAMP', prepare: prepareZoneArgument,
    emit: ([ts, tz], constant, _types, zone) => (zone === undefined ? `rt.toTimezoneNamed(${ts}, ${tz})` : `rt.toTimezone(${constant(zone)}, ${ts})`),
  },
  {
    name: 'to_utc', args: ['TIMESTAMP', 'TEXT'], returns: 'TIMESTAMP', prepare: prepareZoneArgument,
    emit: ([ts, tz], constant, _types, zone) => (zone === undefined ? `rt.toUtcNamed(${ts}, ${tz})` : `rt.toUtc(${constant(zone)}, ${ts})`),
  },
  { name: 'sysdate', args: [], returns: 'DATE', emit: () => 'rt.systemMillis()', volatile: true },
];
