// Runtime helpers for TIMESTAMP_NS values inside compiled expressions, where they are numbers (NaN = null):
// text parsing and rendering for casts. Inside compiled code a nanosecond value is a double, exact only within
// ±2^53 (about 104 days around 1970); vectors that come straight from storage or constants keep exact values.
import { sqlRuntimeError } from '../../core/errors.js';
import { formatTimestampNanosNumber, parseTimestampNanos } from '../../types/timestamp-ns.js';
import { dateRuntime } from './runtime-date.js';
import type { UnitSpec } from './runtime-date.js';

function microsOfNs(nanos: number): number {
  return Math.floor(nanos / 1000);
}

/** The ns remainder below the µs floor (0-999). */
function subMicros(nanos: number): number {
  return nanos - Math.floor(nanos / 1000) * 1000;
}

export const timestampNsRuntime = {
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
