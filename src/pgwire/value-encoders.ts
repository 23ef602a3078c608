// Per-column DataRow cell encoders, chosen once per result column and format: each writes one cell (int32
// length, then the bytes; -1 for NULL) straight into the connection's MessageWriter. Text follows PostgreSQL's
// output functions (bool t/f, timestamp `YYYY-MM-DD HH:MM:SS.ffffff`, bytea `\x..`); binary its send functions
// (big-endian integers and floats, timestamp as µs since 2000-01-01, uuid as 16 bytes).
import { isDecimalType } from '../types/decimal.js';
import { microsFloorOfNanos, nanosAt } from '../types/timestamp-ns.js';
import type { Vector } from '../sql/compiler.js';
import type { ValueType } from '../types/column-type.js';
import { isArrayType } from '../types/double-array.js';
import { formatArrayPg } from '../types/double-array-format.js';
import { writeArrayBinary } from './array-binary.js';
import { formatTimestamp } from '../types/timestamp.js';
import { formatIpv4 } from '../types/uuid-ipv4.js';
import { formatFloat } from '../types/value-format.js';
import type { MessageWriter } from './message-writer.js';
import { formatInterval } from '../types/interval-value.js';
import { isGeohashType } from '../types/geohash.js';

export type CellEncoder = (out: MessageWriter, vector: Vector, row: number) => void;

/** µs from 1970-01-01 to 2000-01-01, PostgreSQL's timestamp epoch. */
export const PG_EPOCH_OFFSET_MICROS = 946_684_800_000_000;
const INT_NULL = -2147483648;
const SAFE = 2 ** 53;

function writeNull(out: MessageWriter): void {
  out.int32(-1);
}

/** `2024-01-01T10:00:00.000000Z` → `2024-01-01 10:00:00.000000`. */
function pgTimestampText(micros: number): string {
  const iso = formatTimestamp(micros);
  return `${iso.slice(0, 10)} ${iso.slice(11, iso.length - 1)}`;
}

function float64Of(vector: Vector, row: number): number {
  return (vector.data as Float64Array)[row];
}

function int64Text(vector: Vector, row: number, value: number): string {
  return vector.exact !== undefined && (value >= SAFE || value <= -SAFE) ? String(vector.exact[row]) : String(value);
}

function int64Exact(vector: Vector, row: number, value: number): bigint {
  return vector.exact !== undefined ? vector.exact[row] : BigInt(Math.trunc(value));
}

function textOf(vector: Vector, row: number): string | null {
  return (vector.data as (string | null)[])[row] ?? null;
}

function pgDoubleText(value: number): string {
  if (value === Infinity) return 'Infinity';
  if (value === -Infinity) return '-Infinity';
  return String(value);
}

/** uuid_send: the 16 bytes in the order the canonical text spells them (the vector holds canonical text). */
function uuidWireBytes(text: string): Buffer {
  return Buffer.from(text.replace(/-/g, ''), 'hex');
}

export function textEncoder(type: ValueType): CellEncoder {
  if (isGeohashType(type) || isDecimalType(type)) return (out, v, r) => { const s = textOf(v, r); if (s === null) writeNull(out); else out.lengthPrefixedUtf8(s); };
  if (isArrayType(type)) return (out, v, r) => { const b = (v.data as (Uint8Array | null)[])[r]; if (b === null || b === undefined) writeNull(out); else out.lengthPrefixedUtf8(formatArrayPg(b)); };
  switch (type) {
    case 'BOOLEAN': return (out, v, r) => out.lengthPrefixedUtf8((v.data as Int8Array)[r] !== 0 ? 't' : 'f');
    case 'BYTE': case 'SHORT': return (out, v, r) => out.lengthPrefixedUtf8(String((v.data as Int16Array)[r]));
    case 'INT': return (out, v, r) => { const x = (v.data as Int32Array)[r]; if (x === INT_NULL) writeNull(out); else out.lengthPrefixedUtf8(String(x)); };
    case 'LONG': return (out, v, r) => { const x = float64Of(v, r); if (x !== x) writeNull(out); else out.lengthPrefixedUtf8(int64Text(v, r, x)); };
    case 'FLOAT': return (out, v, r) => { const x = (v.data as Float32Array)[r]; if (x !== x) writeNull(out); else out.lengthPrefixedUtf8(formatFloat(x)); };
    case 'DOUBLE': return (out, v, r) => { const x = float64Of(v, r); if (x !== x) writeNull(out); else out.lengthPrefixedUtf8(pgDoubleText(x)); };
    case 'TIMESTAMP': return (out, v, r) => { const x = float64Of(v, r); if (x !== x) writeNull(out); else out.lengthPrefixedUtf8(pgTimestampText(x)); };
    case 'DATE': return (out, v, r) => { const x = float64Of(v, r); if (x !== x) writeNull(out); else out.lengthPrefixedUtf8(pgTimestampText(x * 1000)); };
    // PostgreSQL's timestamp holds µs: nanosecond values are sent at their µs floor.
    case 'TIMESTAMP_NS': return (out, v, r) => { const x = nanosAt(v.data as Float64Array, v.exact, r); if (x === undefined) writeNull(out); else out.lengthPrefixedUtf8(pgTimestampText(microsFloorOfNanos(x))); };
    case 'CHAR': return (out, v, r) => { const x = (v.data as Uint16Array)[r]; if (x === 0) writeNull(out); else out.lengthPrefixedUtf8(String.fromCharCode(x)); };
    case 'SYMBOL': return (out, v, r) => { const k = (v.data as Int32Array)[r]; const s = k < 0 ? undefined : v.symbols?.[k]; if (s === undefined) writeNull(out); else out.lengthPrefixedUtf8(s); };
    case 'IPV4': return (out, v, r) => { const x = (v.data as Int32Array)[r]; if (x === 0) writeNull(out); else out.lengthPrefixedUtf8(formatIpv4(x)); };
    case 'BINARY': return (out, v, r) => { const b = (v.data as (Uint8Array | null)[])[r]; if (b === null || b === undefined) writeNull(out); else out.lengthPrefixedUtf8(`\\x${Buffer.from(b.buffer, b.byteOffset, b.length).toString('hex')}`); };
    case 'NULL': return (out) => writeNull(out);
    case 'INTERVAL': return (out, v, r) => { const s = textOf(v, r); if (s === null) writeNull(out); else out.lengthPrefixedUtf8(formatInterval(s)); };
    case 'STRING': case 'VARCHAR': case 'UUID': case 'LONG256':
      return (out, v, r) => { const s = textOf(v, r); if (s === null) writeNull(out); else out.lengthPrefixedUtf8(s); };
  }
}

export function binaryEncoder(type: ValueType): CellEncoder {
  if (isGeohashType(type) || isDecimalType(type)) return textEncoder(type);
  if (isArrayType(type)) return (out, v, r) => { const b = (v.data as (Uint8Array | null)[])[r]; if (b === null || b === undefined) writeNull(out); else writeArrayBinary(out, b); };
  switch (type) {
    case 'BOOLEAN': return (out, v, r) => { out.int32(1); out.int8((v.data as Int8Array)[r] !== 0 ? 1 : 0); };
    case 'BYTE': case 'SHORT': return (out, v, r) => { out.int32(2); out.int16((v.data as Int16Array)[r]); };
    case 'INT': return (out, v, r) => { const x = (v.data as Int32Array)[r]; if (x === INT_NULL) writeNull(out); else { out.int32(4); out.int32(x); } };
    case 'LONG': return (out, v, r) => { const x = float64Of(v, r); if (x !== x) writeNull(out); else { out.int32(8); out.int64(int64Exact(v, r, x)); } };
    case 'FLOAT': return (out, v, r) => { const x = (v.data as Float32Array)[r]; if (x !== x) writeNull(out); else { out.int32(4); out.float32(x); } };
    case 'DOUBLE': return (out, v, r) => { const x = float64Of(v, r); if (x !== x) writeNull(out); else { out.int32(8); out.float64(x); } };
    case 'TIMESTAMP': return (out, v, r) => { const x = float64Of(v, r); if (x !== x) writeNull(out); else { out.int32(8); out.int64(int64Exact(v, r, x) - BigInt(PG_EPOCH_OFFSET_MICROS)); } };
    case 'DATE': return (out, v, r) => { const x = float64Of(v, r); if (x !== x) writeNull(out); else { out.int32(8); out.int64(BigInt(Math.trunc(x)) * 1000n - BigInt(PG_EPOCH_OFFSET_MICROS)); } };
    case 'TIMESTAMP_NS': return (out, v, r) => { const x = nanosAt(v.data as Float64Array, v.exact, r); if (x === undefined) writeNull(out); else { out.int32(8); out.int64(BigInt(microsFloorOfNanos(x)) - BigInt(PG_EPOCH_OFFSET_MICROS)); } };
    case 'UUID': return (out, v, r) => { const s = textOf(v, r); if (s === null) writeNull(out); else { out.int32(16); out.bytes(uuidWireBytes(s)); } };
    case 'BINARY': return (out, v, r) => { const b = (v.data as (Uint8Array | null)[])[r]; if (b === null || b === undefined) writeNull(out); else { out.int32(b.length); out.bytes(b); } };
    // Text-like types send their UTF-8 bytes in binary format too (varchar_send, bpchar_send).
    case 'CHAR': case 'SYMBOL': case 'IPV4': case 'NULL': case 'STRING': case 'VARCHAR': case 'LONG256': case 'INTERVAL':
      return textEncoder(type);
  }
}
