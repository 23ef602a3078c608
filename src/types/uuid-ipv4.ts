// UUID and IPv4 values: canonical text ↔ QuestDB's storage form. A UUID is two signed 64-bit halves,
// hi = the first 16 hex digits and lo = the last 16, stored as 16 bytes: lo little-endian, then hi
// little-endian; both halves at Long.MIN_VALUE is the null UUID. An IPv4 is the address as a signed int32
// ((a<<24|b<<16|c<<8|d)|0), 0.0.0.0 being its null. Parsers return undefined on malformed text.
import { assert } from '../core/assert.js';

export interface UuidHalves {
  readonly hi: bigint;
  readonly lo: bigint;
}

/** Long.MIN_VALUE: each half of the null UUID. */
export const UUID_NULL_HALF = -9223372036854775808n;

const UUID_TEXT_LENGTH = 36;
/** Index in the canonical text of each of the 32 hex digits, most significant first. */
const HEX_POSITIONS: readonly number[] = [
  0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 14, 15, 16, 17, 19, 20, 21, 22, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35,
];
const HEX_PAIRS: readonly string[] = Array.from({ length: 256 }, (_, n) => n.toString(16).padStart(2, '0'));

/** Value of one hex digit code unit (either case), or -1. */
function hexValue(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  const lower = code | 32;
  return lower >= 97 && lower <= 102 ? lower - 87 : -1;
}

/** Whether `text` is 8-4-4-4-12 hex digits with dashes (either case). */
function isCanonicalUuid(text: string): boolean {
  if (text.length !== UUID_TEXT_LENGTH) return false;
  if (text[8] !== '-' || text[13] !== '-' || text[18] !== '-' || text[23] !== '-') return false;
  for (let index = 0; index < HEX_POSITIONS.length; index++) {
    if (hexValue(text.charCodeAt(HEX_POSITIONS[index])) < 0) return false;
  }
  return true;
}

/** Canonical text → the two signed 64-bit halves. */
export function parseUuid(text: string): UuidHalves | undefined {
  if (!isCanonicalUuid(text)) return undefined;
  const hex = text.replaceAll('-', '');
  return {
    hi: BigInt.asIntN(64, BigInt(`0x${hex.slice(0, 16)}`)),
    lo: BigInt.asIntN(64, BigInt(`0x${hex.slice(16)}`)),
  };
}

export function isNullUuid(hi: bigint, lo: bigint): boolean {
  return hi === UUID_NULL_HALF && lo === UUID_NULL_HALF;
}

/** The two halves (signed or unsigned) → lower-case canonical text. */
export function formatUuid(hi: bigint, lo: bigint): string {
  const high = BigInt.asUintN(64, hi).toString(16).padStart(16, '0');
  const low = BigInt.asUintN(64, lo).toString(16).padStart(16, '0');
  return `${high.slice(0, 8)}-${high.slice(8, 12)}-${high.slice(12)}-${low.slice(0, 4)}-${low.slice(4)}`;
}

/** Canonical text → the 16 storage bytes (lo little-endian, then hi little-endian). */
export function uuidToBytes(text: string): Uint8Array | undefined {
  if (!isCanonicalUuid(text)) return undefined;
  const bytes = new Uint8Array(16);
  for (let byte = 0; byte < 8; byte++) {
    // Byte k of a little-endian half is its k-th least significant byte: hex digits counted from the end.
    bytes[byte] = hexPairAt(text, 30 - 2 * byte);
    bytes[8 + byte] = hexPairAt(text, 14 - 2 * byte);
  }
  return bytes;
}

function hexPairAt(text: string, hexIndex: number): number {
  const high = hexValue(text.charCodeAt(HEX_POSITIONS[hexIndex]));
  const low = hexValue(text.charCodeAt(HEX_POSITIONS[hexIndex + 1]));
  return (high << 4) | low;
}

/** 16 storage bytes at `offset` → lower-case canonical text, or null for the null UUID. */
export function uuidFromBytes(bytes: Uint8Array, offset: number): string | null {
  assert(offset >= 0 && offset + 16 <= bytes.length, 'a UUID read stays inside its column buffer');
  if (isNullUuidBytes(bytes, offset)) return null;
  let text = '';
  for (let hexIndex = 0; hexIndex < 32; hexIndex += 2) {
    // hexIndex 0-15 are hi (bytes 15 down to 8), 16-31 are lo (bytes 7 down to 0).
    const byte = hexIndex < 16 ? bytes[offset + 15 - hexIndex / 2] : bytes[offset + 7 - (hexIndex - 16) / 2];
    text += HEX_PAIRS[byte];
    if (hexIndex === 6 || hexIndex === 10 || hexIndex === 14 || hexIndex === 18) text += '-';
  }
  return text;
}

/** Both halves equal Long.MIN_VALUE: seven zero bytes then 0x80, twice. */
function isNullUuidBytes(bytes: Uint8Array, offset: number): boolean {
  for (let index = 0; index < 16; index++) {
    const expected = index === 7 || index === 15 ? 0x80 : 0;
    if (bytes[offset + index] !== expected) return false;
  }
  return true;
}

/** Dotted quad ("1.2.3.4", each part 0-255, 1-3 digits) → signed int32; "0.0.0.0" gives 0, the null. */
export function parseIpv4(text: string): number | undefined {
  let value = 0;
  let part = 0;
  let partDigits = 0;
  let dots = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 46) {
      if (partDigits === 0 || dots === 3) return undefined;
      value = value * 256 + part;
      part = 0;
      partDigits = 0;
      dots++;
      continue;
    }
    const digit = code - 48;
    if (digit < 0 || digit > 9 || partDigits === 3) return undefined;
    part = part * 10 + digit;
    partDigits++;
    if (part > 255) return undefined;
  }
  if (dots !== 3 || partDigits === 0) return undefined;
  return (value * 256 + part) | 0;
}

/** Signed (or unsigned) 32-bit address → dotted quad. */
export function formatIpv4(value: number): string {
  return `${(value >>> 24) & 255}.${(value >>> 16) & 255}.${(value >>> 8) & 255}.${value & 255}`;
}
