// Date arithmetic: dateadd(unit, n, ts), datediff(unit, a, b) (absolute whole units, LONG), timestamp_floor
// (unit with optional stride, optional origin, optional offset and time zone), timestamp_ceil and date_trunc.
// Units of floor/ceil/trunc must be constants and are parsed once at bind time; dateadd/datediff units may vary
// per row (an unknown unit gives NULL, as in QuestDB).
import type { ScalarFunctionDef } from './signature.js';
import type { BoundExpr } from '../bind/bound.js';
import type { TimeUnit } from '../../types/timestamp.js';
import { parseOffsetMicros, resolveTimeZone } from '../../types/time-zone.js';
import { constantText, requireConstantText } from './constant-args.js';
import { sqlSemanticError } from '../../core/errors.js';

interface UnitSpec {
  readonly stride: number;
  readonly unit: TimeUnit;
}

const FLOOR_UNITS: Readonly<Record<string, TimeUnit>> = {
  M: 'M', y: 'y', w: 'w', d: 'd', h: 'h', m: 'm', s: 's', T: 'T', U: 'U', n: 'U',
};

/** '15m' → stride 15, unit m; a bare letter has stride 1 (QuestDB's TimestampFloorFunctionFactory rules). */
export function prepareUnit(args: readonly BoundExpr[], position: number): UnitSpec {
  const text = requireConstantText(args[0], position, 'unit');
  const at = args[0]?.position ?? position;
  if (text === null) throw sqlSemanticError("invalid unit 'null'", at);
  const letter = text.slice(-1);
  const strideText = text.slice(0, -1);
  const stride = strideText === '' ? 1 : /^\d+$/.test(strideText) ? Number(strideText) : 0;
  const unit = FLOOR_UNITS[letter];
  if (unit === undefined || stride <= 0 || !Number.isSafeInteger(stride)) throw sqlSemanticError(`invalid unit '${text}'`, at);
  // Nanosecond strides below one µs keep µs timestamps as they are.
  return letter === 'n' ? { stride: Math.max(1, Math.floor(stride / 1000)), unit } : { stride, unit };
}

interface LocalFloor {
  readonly unit: UnitSpec;
  readonly offsetMicros: number;
  readonly zone: ReturnType<typeof resolveTimeZone>;
}

/** timestamp_floor(unit, ts, from, offset, tz): offset '±HH:mm' and tz are constants (NULL: none). */
function prepareLocalFloor(args: readonly BoundExpr[], position: number): LocalFloor {
  const unit = prepareUnit(args, position);
  const offsetText = requireConstantText(args[3], position, 'offset');
  const offsetMicros = offsetText === null ? 0 : parseOffsetMicros(offsetText.startsWith('-') || offsetText.startsWith('+') ? offsetText : `+${offsetText}`);
  if (offsetMicros === undefined) throw sqlSemanticError(`invalid offset: ${offsetText ?? ''}`, args[3]?.position ?? position);
  const zoneText = requireConstantText(args[4], position, 'timezone');
  const zone = zoneText === null ? undefined : resolveTimeZone(zoneText);
  if (zoneText !== null && zone === undefined) throw sqlSemanticError(`invalid timezone: ${zoneText}`, args[4]?.position ?? position);
  return { unit, offsetMicros, zone };
}

const TRUNC_UNITS = new Set([
  'nanosecond', 'microsecond', 'millisecond', 'second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year',
  'decade', 'century', 'millennium',
]);

export function prepareTruncUnit(args: readonly BoundExpr[], position: number): string {
  const text = requireConstantText(args[0], position, 'unit');
  const lower = text?.toLowerCase();
  if (lower === undefined || !TRUNC_UNITS.has(lower)) throw sqlSemanticError(`invalid unit '${text ?? 'null'}'`, args[0]?.position ?? position);
  return lower;
}

/** A constant dateadd/datediff unit is checked at bind time; a NULL or unknown one makes every row NULL. */
export function checkPeriod(args: readonly BoundExpr[]): undefined {
  const text = constantText(args[0]);
  if (typeof text === 'string' && text.length !== 1) throw sqlSemanticError(`inconvertible value: \`${text}\` [STRING -> CHAR]`, args[0]?.position ?? 0);
  return undefined;
}

export const DATE_ARITH_FUNCTIONS: readonly ScalarFunctionDef[] = [
  {
    name: 'dateadd', args: ['TEXT', 'LONG', 'TIMESTAMP'], returns: 'TIMESTAMP', prepare: checkPeriod,
    emit: ([unit, n, ts]) => `rt.dateAdd(${unit}, ${n}, ${ts})`,
  },
  {
    name: 'datediff', args: ['TEXT', 'TIMESTAMP', 'TIMESTAMP'], returns: 'LONG', prepare: checkPeriod,
    emit: ([unit, a, b]) => `rt.dateDiff(${unit}, ${a}, ${b})`,
  },
  {
    name: 'timestamp_floor', args: ['TEXT', 'TIMESTAMP'], returns: 'TIMESTAMP', prepare: prepareUnit,
    emit: ([, ts], constant, _types, prepared) => `rt.floorUnit(${constant(prepared)}, ${ts})`,
  },
  {
    name: 'timestamp_floor', args: ['TEXT', 'TIMESTAMP', 'TIMESTAMP'], returns: 'TIMESTAMP', prepare: prepareUnit,
    emit: ([, ts, from], constant, _types, prepared) => `rt.floorUnitFrom(${constant(prepared)}, ${ts}, ${from})`,
  },
  {
    name: 'timestamp_floor', args: ['TEXT', 'TIMESTAMP', 'TIMESTAMP', 'TEXT', 'TEXT'], returns: 'TIMESTAMP', prepare: prepareLocalFloor,
    emit: ([, ts, from], constant, _types, prepared) => {
      const local = prepared as LocalFloor;
      return `rt.floorUnitLocal(${constant(local.unit)}, ${ts}, ${from}, ${constant(local.offsetMicros)}, ${constant(local.zone)})`;
    },
  },
  {
    name: 'timestamp_ceil', args: ['TEXT', 'TIMESTAMP'], returns: 'TIMESTAMP', prepare: prepareUnit,
    emit: ([, ts], constant, _types, prepared) => `rt.ceilUnit(${constant(prepared)}, ${ts})`,
  },
  {
    name: 'date_trunc', args: ['TEXT', 'TIMESTAMP'], returns: 'TIMESTAMP', prepare: prepareTruncUnit,
    emit: ([, ts], constant, _types, prepared) => `rt.truncate(${constant(prepared)}, ${ts})`,
  },
];
