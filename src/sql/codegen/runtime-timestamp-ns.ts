// Runtime helpers for TIMESTAMP_NS values inside compiled expressions, where they are numbers (NaN = null):
// text parsing and rendering for casts. Inside compiled code a nanosecond value is a double, exact only within
// ±2^53 (about 104 days around 1970); vectors that come straight from storage or constants keep exact values.
import { sqlRuntimeError } from '../../core/errors.js';
import { formatTimestampNanosNumber, parseTimestampNanos } from '../../types/timestamp-ns.js';
import { dateRuntime } from './runtime-date.js';
import type { UnitSpec } from './runtime-date.js';
import { LONG_NULL, int64Runtime } from './runtime-int64.js';

function microsOfNs(nanos: number): number {
  return Math.floor(nanos / 1000);
}

/** The ns remainder below the µs floor (0-999). */
function subMicros(nanos: number): number {
  return nanos - Math.floor(nanos / 1000) * 1000;
}

/** The µs floor of exact nanoseconds as a number (µs fit a double exactly); NaN for null. */
function microsOfNsX(nanos: bigint): number {
  return int64Runtime.nsFloorTo(nanos, 1000n);
}

/**
 * The exact forms of the helpers above (functions/date-timestamp-ns.ts `emitExact`): ns values are BigInts with
 * Long.MIN_VALUE as null, so today's values keep every nanosecond (a double holds them only to 256 ns).
 */
const exactNsRuntime = {
  microsOfNsX,
  nsOfMicrosX: (micros: number, nanos: bigint): bigint => (micros !== micros || nanos === LONG_NULL ? LONG_NULL : BigInt(micros) * 1000n),
  shiftNsX: (nanos: bigint, shiftedMicros: number): bigint => (nanos === LONG_NULL || shiftedMicros !== shiftedMicros ? LONG_NULL : nanos + (BigInt(shiftedMicros) - BigInt(microsOfNsX(nanos))) * 1000n),
  ceilNsX(spec: UnitSpec, nanos: bigint): bigint {
    if (nanos === LONG_NULL) return LONG_NULL;
    const micros = microsOfNsX(nanos);
    const exactMicros = BigInt(micros) * 1000n === nanos;
    return BigInt(dateRuntime.ceilUnit(spec, exactMicros ? micros : micros + 1)) * 1000n;
  },
  /** `count` is a BigInt when it is an int64 expression, a number (NaN null) for a narrower integer. */
  dateAddNsX(unit: string | null, count: bigint | number, nanos: bigint): bigint {
    if (count === LONG_NULL || count !== count || nanos === LONG_NULL) return LONG_NULL;
    if (unit === 'n') return BigInt.asIntN(64, nanos + BigInt(count));
    const micros = microsOfNsX(nanos);
    const moved = dateRuntime.dateAdd(unit, Number(count), micros);
    if (moved !== moved) return LONG_NULL;
    const result = BigInt(moved) * 1000n + (nanos - BigInt(micros) * 1000n);
    // Past the int64 nanosecond range the instant has no TIMESTAMP_NS value: null rather than a wrapped one.
    return BigInt.asIntN(64, result) === result ? result : LONG_NULL;
  },
  dateDiffNsX(unit: string | null, a: bigint, b: bigint): bigint {
    if (a === LONG_NULL || b === LONG_NULL) return LONG_NULL;
    const span = a > b ? a - b : b - a;
    if (unit === 'n') return span;
    if (unit === 'u' || unit === 'U') return span / 1000n;
    const diff = dateRuntime.dateDiff(unit, microsOfNsX(a), microsOfNsX(b));
    return diff !== diff ? LONG_NULL : BigInt(diff);
  },
};

export const timestampNsRuntime = {
  ...exactNsRuntime,
  microsOfNs,
  /** A µs result (a floor or truncation) back in ns; NaN when either it or the ns input is null. */
  nsOfMicros: (micros: number, nanos: number): number => (micros !== micros || nanos !== nanos ? NaN : micros * 1000),
  /** `nanos` moved by the shift a µs conversion applied to its floor (time zones). */
  shiftNs: (nanos: number, shiftedMicros: number): number => (nanos !== nanos || shiftedMicros !== shiftedMicros ? NaN : nanos + (shiftedMicros - microsOfNs(nanos)) * 1000),
  ceilNs(spec: UnitSpec, nanos: number): number {
    if (nanos !== nanos) return NaN;
    const micros = microsOfNs(nanos);
    return dateRuntime.ceilUnit(spec, subMicros(nanos) === 0 ? micros : micros + 1) * 1000;
  },
  /** dateadd on ns: 'n' adds nanoseconds; other units move the µs floor and keep the sub-µs digits. */
  dateAddNs(unit: string | null, count: number, nanos: number): number {
    if (unit === 'n') return count !== count || nanos !== nanos ? NaN : nanos + Math.trunc(count);
    return dateRuntime.dateAdd(unit, count, microsOfNs(nanos)) * 1000 + subMicros(nanos);
  },
  dateDiffNs(unit: string | null, a: number, b: number): number {
    if (unit === 'n') return a !== a || b !== b ? NaN : Math.abs(a - b);
    if (unit === 'u' || unit === 'U') return a !== a || b !== b ? NaN : Math.floor(Math.abs(a - b) / 1000);
    return dateRuntime.dateDiff(unit, microsOfNs(a), microsOfNs(b));
  },
  systemNanos: (): number => Date.now() * 1_000_000,
  parseTimestampNsOrThrow(text: string | null, from: string, position: number): number {
    if (text === null) return NaN;
    const value = parseTimestampNanos(text);
    if (value === undefined) throw sqlRuntimeError(`inconvertible value: \`${text}\` [${from} -> TIMESTAMP_NS]`, position);
    return Number(value);
  },
  formatTimestampNs(value: number): string | null {
    return value !== value ? null : formatTimestampNanosNumber(value);
  },
};
