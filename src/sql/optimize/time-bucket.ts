// Recognises a bound GROUP BY key that is one calendar bucket of the designated timestamp, in the forms a SAMPLE
// BY can compute instead: `timestamp_floor('15m', ts)`, `date_trunc('hour', ts)`, their local-time form over
// `to_timezone(ts, tz)`, and QuestDB's own spelling of SAMPLE BY ... TIME ZONE,
// `to_utc(timestamp_floor('1h', to_timezone(ts, tz)), tz)`. Pure: reads bound expressions, builds none.
import type { BoundCall, BoundExpr } from '../bind/bound.js';
import type { TimeUnit } from '../../types/timestamp.js';
import type { TimeZoneRules } from '../../types/time-zone-rules.js';
import { resolveTimeZone } from '../../types/time-zone-rules.js';

export interface TimeBucket {
  readonly count: number;
  readonly unit: TimeUnit;
  readonly timeZone?: TimeZoneRules;
  /**
   * `floor(to_timezone(ts, tz))` without to_utc shows the bucket as local wall-clock time: this is that
   * to_timezone call, which applied to the bucket start (a UTC instant) gives the key's value.
   */
  readonly localTime?: BoundCall;
}

const SUB_DAY_UNITS: ReadonlySet<TimeUnit> = new Set<TimeUnit>(['U', 'T', 's', 'm', 'h']);
const FIXED_OFFSET_ZONE = /^(?:UTC|GMT|Z|[+-]\d{2}:?\d{2})$/i;

// timestamp_floor also takes 'n' (nanoseconds, floored to µs strides); SAMPLE BY has no such unit.
const FLOOR_UNITS: ReadonlyMap<string, TimeUnit> = new Map((['U', 'T', 's', 'm', 'h', 'd', 'w', 'M', 'y'] as const).map((unit) => [unit, unit]));

// date_trunc's decade, century and millennium have no SAMPLE BY stride.
const TRUNC_UNITS: ReadonlyMap<string, { readonly count: number; readonly unit: TimeUnit }> = new Map([
  ['microsecond', { count: 1, unit: 'U' }], ['millisecond', { count: 1, unit: 'T' }], ['second', { count: 1, unit: 's' }],
  ['minute', { count: 1, unit: 'm' }], ['hour', { count: 1, unit: 'h' }], ['day', { count: 1, unit: 'd' }], ['week', { count: 1, unit: 'w' }],
  ['month', { count: 1, unit: 'M' }], ['quarter', { count: 3, unit: 'M' }], ['year', { count: 1, unit: 'y' }],
]);

/** The bucket `expr` computes from input column `timestampIndex`, if it is one of the recognised forms. */
export function timeBucketOf(expr: BoundExpr, timestampIndex: number): TimeBucket | undefined {
  if (expr.kind !== 'call') return undefined;
  if (expr.name.toLowerCase() === 'to_utc' && expr.args.length === 2) {
    const [floored, zone] = expr.args;
    const local = floored?.kind === 'call' ? localBucketOf(floored, timestampIndex) : undefined;
    // to_utc must undo the same zone's to_timezone, or the bucket start is another instant.
    if (local === undefined || zone === undefined || textConstant(zone) !== textConstant(local.zone)) return undefined;
    return { count: local.count, unit: local.unit, timeZone: local.timeZone };
  }
  const unit = floorUnitOf(expr);
  if (unit === undefined) return undefined;
  if (isColumn(expr.args[1], timestampIndex)) return unit;
  const local = localBucketOf(expr, timestampIndex);
  return local === undefined ? undefined : { count: local.count, unit: local.unit, timeZone: local.timeZone, localTime: local.call };
}

interface LocalBucket {
  readonly count: number;
  readonly unit: TimeUnit;
  readonly timeZone: TimeZoneRules;
  readonly zone: BoundExpr;
  readonly call: BoundCall;
}

/**
 * `floor(to_timezone(ts, tz))`: the local-time bucket. Sub-day buckets in a zone with daylight saving meet the
 * repeated hour of a fall-back change, where to_utc and SAMPLE BY pick different instants for the bucket start,
 * so only fixed-offset zones take sub-day units.
 */
function localBucketOf(floored: BoundCall, timestampIndex: number): LocalBucket | undefined {
  const unit = floorUnitOf(floored);
  const local = floored.args[1];
  if (unit === undefined || local?.kind !== 'call' || local.name.toLowerCase() !== 'to_timezone' || local.args.length !== 2) return undefined;
  const [timestamp, zone] = local.args;
  const zoneText = zone === undefined ? undefined : textConstant(zone);
  if (zone === undefined || zoneText === undefined || !isColumn(timestamp, timestampIndex)) return undefined;
  const timeZone = resolveTimeZone(zoneText);
  if (timeZone === undefined || (SUB_DAY_UNITS.has(unit.unit) && !FIXED_OFFSET_ZONE.test(zoneText))) return undefined;
  return { ...unit, timeZone, zone, call: local };
}

/** Stride and unit of `timestamp_floor('15m', x)` or `date_trunc('hour', x)`; undefined for other calls. */
function floorUnitOf(call: BoundCall): { count: number; unit: TimeUnit } | undefined {
  const text = call.args.length === 2 && call.args[0] !== undefined ? textConstant(call.args[0]) : undefined;
  if (text === undefined) return undefined;
  const name = call.name.toLowerCase();
  if (name === 'date_trunc') return TRUNC_UNITS.get(text.toLowerCase());
  if (name !== 'timestamp_floor') return undefined;
  const match = /^(\d*)([A-Za-z])$/.exec(text);
  const unit = match === null ? undefined : FLOOR_UNITS.get(match[2]);
  if (match === null || unit === undefined) return undefined;
  const count = match[1] === '' ? 1 : Number(match[1]);
  return Number.isSafeInteger(count) && count >= 1 ? { count, unit } : undefined;
}

function textConstant(expr: BoundExpr): string | undefined {
  return expr.kind === 'constant' && typeof expr.value === 'string' ? expr.value : undefined;
}

function isColumn(expr: BoundExpr | undefined, index: number): boolean {
  return expr?.kind === 'column' && expr.index === index;
}
