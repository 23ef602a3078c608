// Line protocol timestamps into TIMESTAMP_NS columns: the integer parsed exactly (BigInt: ns values have 19
// digits and do not fit a double) and scaled from its unit to nanoseconds. Used for fields of an existing
// TIMESTAMP_NS column and for the line timestamp of a table whose designated timestamp is TIMESTAMP_NS.
import { IlpValueError } from './ilp-errors.js';
import type { TimestampUnit } from './ilp-numbers.js';
import type { FixedColumnBuilder } from './column-builder.js';

const NANOS_PER_UNIT: Readonly<Record<TimestampUnit, bigint>> = { ns: 1n, us: 1000n, ms: 1_000_000n, s: 1_000_000_000n, m: 60_000_000_000n, h: 3_600_000_000_000n };
const INTEGER = /^[-+]?\d{1,19}$/;
const INT64_MAX = 9223372036854775807n;

/** The integer in bytes [start, end) in `unit`, as ns; throws for text that is not one or a value past int64. */
export function parseTimestampNanos(bytes: Uint8Array, start: number, end: number, unit: TimestampUnit): bigint {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('latin1');
  if (!INTEGER.test(text)) throw new IlpValueError(`invalid timestamp: ${JSON.stringify(text.slice(0, 64))}`);
  const nanos = BigInt(text) * NANOS_PER_UNIT[unit];
  if (nanos > INT64_MAX || nanos < -INT64_MAX) throw new IlpValueError(`timestamp out of range: ${text.slice(0, 64)}`);
  return nanos;
}

/** Appends `nanos` to an 8-byte column builder. */
export function appendNanos(builder: FixedColumnBuilder, nanos: bigint): void {
  const index = builder.next();
  builder.i32[index * 2] = Number(BigInt.asIntN(32, nanos));
  builder.i32[index * 2 + 1] = Number(BigInt.asIntN(32, nanos >> 32n));
}
