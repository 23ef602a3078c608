// LONG256 values: 256-bit unsigned integers stored as four little-endian 64-bit words, least significant word
// first (32 bytes); all four words at Long.MIN_VALUE is null. While a query runs a value is held as QuestDB's
// text form: `0x` then the hex digits without leading zeros, padded to a whole number of bytes (`0x01`).
import { assert } from '../core/assert.js';

export const LONG256_WIDTH_BYTES = 32;
const LONG_MIN = -9223372036854775808n;
const HEX_DIGITS_MAX = 64;
const HEX_PATTERN = /^0[xX][0-9a-fA-F]+$/;

/** The canonical text of a 256-bit value. */
export function formatLong256(value: bigint): string {
  assert(value >= 0n && value < 1n << 256n, 'a LONG256 is an unsigned 256-bit value');
  const hex = value.toString(16);
  return `0x${hex.length % 2 === 0 ? hex : `0${hex}`}`;
}

/** `0x` and 1 to 64 hex digits (either case) → canonical text; undefined otherwise. */
export function parseLong256(text: string): string | undefined {
  if (!HEX_PATTERN.test(text) || text.length - 2 > HEX_DIGITS_MAX) return undefined;
  return formatLong256(BigInt(text.startsWith('0X') ? `0x${text.slice(2)}` : text));
}

/** 32 storage bytes at `offset` → canonical text, or null. */
export function readLong256(bytes: Uint8Array, offset: number): string | null {
  assert(offset >= 0 && offset + LONG256_WIDTH_BYTES <= bytes.length, 'a LONG256 read stays inside its column buffer');
  const view = new DataView(bytes.buffer, bytes.byteOffset + offset, LONG256_WIDTH_BYTES);
  let isNull = true;
  let value = 0n;
  for (let word = 3; word >= 0; word--) {
    const signed = view.getBigInt64(word * 8, true);
    if (signed !== LONG_MIN) isNull = false;
    value = (value << 64n) | BigInt.asUintN(64, signed);
  }
  return isNull ? null : formatLong256(value);
}

/** Canonical text (or null) → 32 storage bytes at `offset`. */
export function writeLong256(bytes: Uint8Array, offset: number, text: string | null): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset + offset, LONG256_WIDTH_BYTES);
  if (text === null) {
    for (let word = 0; word < 4; word++) view.setBigInt64(word * 8, LONG_MIN, true);
    return;
  }
  let value = BigInt(text);
  for (let word = 0; word < 4; word++) {
    view.setBigUint64(word * 8, BigInt.asUintN(64, value), true);
    value >>= 64n;
  }
}
