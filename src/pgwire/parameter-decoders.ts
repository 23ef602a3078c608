// Turns the values of a Bind message into parameter values: text format is read as PostgreSQL's input
// functions write it, binary format by the parameter's type (int2/4/8, float4/8, bool, timestamp as µs since
// 2000-01-01, date as days since 2000-01-01, uuid as 16 bytes, bytea raw, text types as UTF-8).
import type { ParameterType, ParameterValue } from '../sql/compiler.js';
import { parseTimestamp } from '../types/timestamp-parse.js';
import { SqlError } from '../core/errors.js';
import { OID } from './pg-types.js';
import { PG_EPOCH_OFFSET_MICROS } from './value-encoders.js';

const MICROS_PER_DAY = 86_400_000_000;

export interface ParameterSlot {
  readonly index: number;
  readonly type: ParameterType;
  /** The OID the client declared (0 when it left the type to the server). */
  readonly declaredOid: number;
}

export function invalidParameter(slot: ParameterSlot, reason: string): SqlError {
  return new SqlError(`invalid value for parameter $${slot.index + 1} [type=${slot.type}]: ${reason}`, 0, 'SVC_SQL_SEMANTIC');
}

export function decodeParameter(slot: ParameterSlot, format: number, bytes: Buffer | null): ParameterValue {
  if (bytes === null) return { type: slot.type, text: null };
  return { type: slot.type, text: format === 1 ? decodeBinary(slot, bytes) : decodeText(slot, bytes.toString('utf8')) };
}

function decodeText(slot: ParameterSlot, text: string): string {
  switch (slot.type) {
    case 'BOOLEAN': {
      const word = text.trim().toLowerCase();
      if (['t', 'true', 'y', 'yes', 'on', '1'].includes(word)) return 'true';
      if (['f', 'false', 'n', 'no', 'off', '0'].includes(word)) return 'false';
      throw invalidParameter(slot, 'not a boolean');
    }
    case 'TIMESTAMP': case 'DATE': {
      const trimmed = text.trim();
      if (/^-?\d+$/.test(trimmed)) return trimmed;
      const micros = parseTimestamp(trimmed.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00'));
      if (micros === undefined) throw invalidParameter(slot, 'not a timestamp');
      return String(micros);
    }
    case 'BINARY':
      if (/^\\x/i.test(text)) return text.slice(2);
      return Buffer.from(text, 'utf8').toString('hex');
    case 'SHORT': case 'INT': case 'LONG': case 'FLOAT': case 'DOUBLE': return text.trim();
    case 'VARCHAR': case 'UUID': case 'CHAR': return text;
  }
}

function need(slot: ParameterSlot, bytes: Buffer, length: number): void {
  if (bytes.length !== length) throw invalidParameter(slot, `binary value of ${bytes.length} bytes, expected ${length}`);
}

function decodeBinary(slot: ParameterSlot, bytes: Buffer): string {
  switch (slot.type) {
    case 'BOOLEAN': need(slot, bytes, 1); return bytes[0] !== 0 ? 'true' : 'false';
    case 'SHORT': need(slot, bytes, 2); return String(bytes.readInt16BE(0));
    case 'INT': need(slot, bytes, 4); return String(bytes.readInt32BE(0));
    case 'LONG': return decodeBinaryInteger(slot, bytes);
    case 'FLOAT': need(slot, bytes, 4); return String(bytes.readFloatBE(0));
    case 'DOUBLE':
      if (slot.declaredOid === OID.NUMERIC) throw invalidParameter(slot, 'binary numeric is not supported; send it as text');
      if (bytes.length === 4) return String(bytes.readFloatBE(0));
      need(slot, bytes, 8);
      return String(bytes.readDoubleBE(0));
    case 'TIMESTAMP': case 'DATE':
      if (slot.declaredOid === OID.DATE) {
        need(slot, bytes, 4);
        return String(BigInt(bytes.readInt32BE(0)) * BigInt(MICROS_PER_DAY) + BigInt(PG_EPOCH_OFFSET_MICROS));
      }
      need(slot, bytes, 8);
      return String(bytes.readBigInt64BE(0) + BigInt(PG_EPOCH_OFFSET_MICROS));
    case 'UUID': {
      need(slot, bytes, 16);
      const hex = bytes.toString('hex');
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    }
    case 'BINARY': return bytes.toString('hex');
    case 'VARCHAR': case 'CHAR': return bytes.toString('utf8');
  }
}

/** int8, or a narrower integer when the client declared int2/int4 but the server typed the parameter LONG. */
function decodeBinaryInteger(slot: ParameterSlot, bytes: Buffer): string {
  if (bytes.length === 8) return String(bytes.readBigInt64BE(0));
  if (bytes.length === 4) return String(bytes.readInt32BE(0));
  if (bytes.length === 2) return String(bytes.readInt16BE(0));
  throw invalidParameter(slot, `binary value of ${bytes.length} bytes, expected 8`);
}
