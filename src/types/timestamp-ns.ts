// TIMESTAMP_NS: 64-bit nanoseconds since the Unix epoch (UTC), Long.MIN_VALUE = null. Values near today
// (~1.7e18) do not fit a double exactly, so text in and out goes through BigInt; the calendar work is done on
// the µs floor with the TIMESTAMP helpers and the sub-µs remainder (0-999) carried beside it.
import { formatTimestamp, parseTimestamp, parseTimestampPeriod } from './timestamp.js';
import type { TimestampPeriod } from './timestamp.js';

export const NANOS_PER_MICRO = 1000n;

/** The types a designated timestamp may have. */
export function isDesignatedTimestampType(type: string | undefined): boolean {
  return type === 'TIMESTAMP' || type === 'TIMESTAMP_NS';
}
export const INT64_NULL = -9223372036854775808n;

/** Nanoseconds as text: "2024-01-01T00:00:00.123456789Z", always nine fraction digits. */
export function formatTimestampNanos(nanos: bigint): string {
  let micros = nanos / NANOS_PER_MICRO;
  let rest = nanos - micros * NANOS_PER_MICRO;
  if (rest < 0n) {
    micros -= 1n;
    rest += NANOS_PER_MICRO;
  }
  const text = formatTimestamp(Number(micros));
  return `${text.slice(0, -1)}${String(rest).padStart(3, '0')}Z`;
}

/** A number holding nanoseconds (exact only within ±2^53) as text; for vectors without exact values. */
export function formatTimestampNanosNumber(nanos: number): string {
  return formatTimestampNanos(BigInt(Math.trunc(nanos)));
}

/** The µs floor of a nanosecond value, as a number (exact: |µs| stays below 2^53). */
export function microsFloorOfNanos(nanos: bigint): number {
  let micros = nanos / NANOS_PER_MICRO;
  if (micros * NANOS_PER_MICRO > nanos) micros -= 1n;
  return Number(micros);
}

/** Digits 7-9 of the fraction of an ISO text (the nanoseconds below the µs), 0 when absent. */
function subMicroDigits(text: string): number {
  const dot = text.indexOf('.', 19);
  if (dot !== 19) return 0;
  let value = 0;
  let digits = 0;
  for (let position = dot + 1; position < text.length && digits < 9; position++, digits++) {
    const digit = text.charCodeAt(position) - 48;
    if (digit < 0 || digit > 9) break;
    if (digits >= 6) value = value * 10 + digit;
  }
  for (; digits < 9; digits++) if (digits >= 6) value *= 10;
  return value;
}

/** One instant in ns: the TIMESTAMP literal forms, with up to nine fraction digits kept. */
export function parseTimestampNanos(text: string): bigint | undefined {
  const micros = parseTimestamp(text);
  if (micros === undefined) return undefined;
  return BigInt(micros) * NANOS_PER_MICRO + BigInt(subMicroDigits(text));
}

/** The inclusive ns range a partial timestamp names ('2024-01-01' → the whole day, to …59.999999999). */
export function parseTimestampPeriodNanos(text: string): { lo: bigint; hi: bigint } | undefined {
  const period: TimestampPeriod | undefined = parseTimestampPeriod(text);
  if (period === undefined) return undefined;
  const fractionDigits = text.length > 20 && text.charCodeAt(19) === 46 ? text.length - 20 : 0;
  if (fractionDigits > 6) {
    const lo = BigInt(period.lo) * NANOS_PER_MICRO + BigInt(subMicroDigits(text));
    let width = 1n;
    for (let digits = fractionDigits; digits < 9; digits++) width *= 10n;
    return { lo, hi: lo + width - 1n };
  }
  return { lo: BigInt(period.lo) * NANOS_PER_MICRO, hi: BigInt(period.hi) * NANOS_PER_MICRO + 999n };
}

/** Row `row` of a 64-bit vector as exact ns (from `exact` when present, else the number); undefined for null. */
export function nanosAt(data: Float64Array, exact: BigInt64Array | undefined, row: number): bigint | undefined {
  if (exact !== undefined) {
    const value = exact[row];
    return value === INT64_NULL ? undefined : value;
  }
  const value = data[row];
  return value !== value ? undefined : BigInt(Math.trunc(value));
}
