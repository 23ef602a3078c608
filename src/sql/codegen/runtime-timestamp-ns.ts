// Runtime helpers for TIMESTAMP_NS values inside compiled expressions, where they are numbers (NaN = null):
// text parsing and rendering for casts. Inside compiled code a nanosecond value is a double, exact only within
// ±2^53 (about 104 days around 1970); vectors that come straight from storage or constants keep exact values.
import { sqlRuntimeError } from '../../core/errors.js';
import { formatTimestampNanosNumber, parseTimestampNanos } from '../../types/timestamp-ns.js';

export const timestampNsRuntime = {
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
