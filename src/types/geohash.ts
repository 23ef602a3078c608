// GEOHASH(<n>b|<n>c) values, 1 to 60 bits. The type name carries the precision in bits ('GEOHASH(20b)');
// QuestDB prints a precision that is a whole number of 5-bit characters as 'GEOHASH(4c)'. Storage is the
// hash as an integer of 1, 2, 4 or 8 bytes by precision, -1 (all bits set) being null. While a query runs a
// value is held as its display text: base32 characters when bits % 5 == 0, else binary digits, so the text
// alone says the precision and equal values of one type are equal strings.
import { assert } from '../core/assert.js';

export type GeohashBits =
  | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11 | 12 | 13 | 14 | 15 | 16 | 17 | 18 | 19 | 20
  | 21 | 22 | 23 | 24 | 25 | 26 | 27 | 28 | 29 | 30 | 31 | 32 | 33 | 34 | 35 | 36 | 37 | 38 | 39 | 40
  | 41 | 42 | 43 | 44 | 45 | 46 | 47 | 48 | 49 | 50 | 51 | 52 | 53 | 54 | 55 | 56 | 57 | 58 | 59 | 60;

export type GeohashType = `GEOHASH(${GeohashBits}b)`;

export const GEOHASH_BITS_MAX = 60;
/** QuestDB reads at most this many characters of a base32 string. */
export const GEOHASH_CHARS_MAX = 12;

export const GEOHASH_TYPES: readonly GeohashType[] = Array.from({ length: GEOHASH_BITS_MAX }, (_, k) => geohashTypeOf(k + 1));

const BASE32 = '0123456789bcdefghjkmnpqrstuvwxyz';
const BASE32_INDEX: Readonly<Record<string, number>> = Object.fromEntries(
  [...BASE32].flatMap((char, k) => [[char, k], [char.toUpperCase(), k]]),
);
const TYPE_PATTERN = /^GEOHASH\((\d+)b\)$/;

export function geohashTypeOf(bits: number): GeohashType {
  assert(Number.isInteger(bits) && bits >= 1 && bits <= GEOHASH_BITS_MAX, 'a geohash precision is 1 to 60 bits');
  return `GEOHASH(${bits}b)` as GeohashType;
}

export function isGeohashType(type: string): type is GeohashType {
  return type.startsWith('GEOHASH(') && TYPE_PATTERN.test(type);
}

export function geohashBits(type: GeohashType): number {
  return Number(TYPE_PATTERN.exec(type)?.[1]);
}

/** The name QuestDB prints: `GEOHASH(4c)` when the precision is whole characters, else `GEOHASH(7b)`. */
export function geohashDisplayName(type: GeohashType): string {
  const bits = geohashBits(type);
  return bits % 5 === 0 ? `GEOHASH(${bits / 5}c)` : type;
}

/** Bytes per stored value: byte, short, int or long by precision, as QuestDB lays them out. */
export function geohashWidthBytes(bits: number): number {
  if (bits <= 7) return 1;
  if (bits <= 15) return 2;
  if (bits <= 31) return 4;
  return 8;
}

/**
 * A precision as written in DDL or a cast, `8C` or `20B` (the parser upper-cases it): the bit count, or a
 * message saying what is wrong.
 */
export function parseGeohashPrecision(text: string): number | string {
  const match = /^(\d+)([A-Z])$/i.exec(text);
  if (match === null) return "invalid GEOHASH size, must be number followed by 'C' or 'B' character";
  if (!/^[BC]$/i.test(match[2] ?? '')) return "invalid GEOHASH size units, must be 'c', 'C' for chars, or 'b', 'B' for bits";
  const size = Number(match[1]);
  const bits = match[2]?.toUpperCase() === 'C' ? size * 5 : size;
  if (size < 1 || bits > GEOHASH_BITS_MAX) {
    return `invalid GEOHASH type precision range, must be [1, 60] bits, provided=${bits}`;
  }
  return bits;
}

/**
 * For a type name `GEOHASH(<arg>)` whose precision is wrong, QuestDB's message, reported at the argument (the
 * position `GEOHASH(`.length past the type name); undefined for any other name.
 */
export function geohashTypeNameError(typeName: string): string | undefined {
  const match = /^GEOHASH\((.*)\)$/i.exec(typeName);
  if (match === null) return undefined;
  const bits = parseGeohashPrecision(match[1] ?? '');
  return typeof bits === 'string' ? bits : undefined;
}

/** Characters from the start of a GEOHASH type name to its precision argument. */
export const GEOHASH_ARGUMENT_OFFSET = 'GEOHASH('.length;

/**
 * A `#` literal → its binary digits (their count is the precision), or QuestDB's message for a bad `/bits`
 * suffix; undefined for anything else that is not a geohash (the caller reports `invalid constant`).
 * `##0101`: binary digits, at most 60. `#u33d`: base32, 5 bits a character, at most 12 characters; `#u33d/18`:
 * the first 18 bits of those characters (the suffix may not ask for more bits than the characters hold).
 */
export function readGeohashLiteral(token: string): { readonly binary: string } | { readonly error: string } | undefined {
  if (token.startsWith('##')) {
    const binary = token.slice(2);
    return /^[01]{1,60}$/.test(binary) ? { binary } : undefined;
  }
  const match = /^#([0-9a-zA-Z]*)(?:\/(\d+))?$/.exec(token);
  if (match === null) return undefined;
  const chars = match[1] ?? '';
  if (chars.length === 0 || chars.length > GEOHASH_CHARS_MAX) return undefined;
  const binary = base32ToBinary(chars);
  if (match[2] === undefined) return binary === undefined ? undefined : { binary };
  const bits = Number(match[2]);
  if (match[2].length > 2 || bits < 1 || bits > GEOHASH_BITS_MAX) return { error: `invalid bits size for GEOHASH constant: ${token}` };
  if (binary === undefined || binary.length < bits) return undefined;
  return { binary: binary.slice(0, bits) };
}

/** Base32 text → binary digits, or undefined when a character is not base32. */
export function base32ToBinary(text: string): string | undefined {
  let binary = '';
  for (const char of text) {
    const value = BASE32_INDEX[char];
    if (value === undefined) return undefined;
    binary += value.toString(2).padStart(5, '0');
  }
  return binary;
}

/** Binary digits (any length, a multiple of 5 when `bits % 5 == 0`) → the display text for `bits`. */
export function geohashDisplay(binary: string, bits: number): string {
  assert(binary.length >= bits, 'a geohash is truncated, never widened');
  const kept = binary.slice(0, bits);
  if (bits % 5 !== 0) return kept;
  let text = '';
  for (let start = 0; start < bits; start += 5) text += BASE32[parseInt(kept.slice(start, start + 5), 2)];
  return text;
}

/** Display text (base32 when its precision is whole characters, else binary digits) → binary digits. */
export function geohashToBinary(display: string, bits: number): string {
  if (bits % 5 !== 0) return display;
  return base32ToBinary(display) ?? '';
}

/**
 * A base32 string cast to GEOHASH of `bits`: characters past the twelfth are ignored, too few characters for the
 * precision or a non-base32 character give undefined; the empty string is null.
 */
export function geohashFromBase32(text: string, bits: number): string | null | undefined {
  if (text.length === 0) return null;
  const binary = base32ToBinary(text.slice(0, GEOHASH_CHARS_MAX));
  if (binary === undefined || binary.length < bits) return undefined;
  return geohashDisplay(binary, bits);
}

/** The stored integer (widened to bigint) → display text; -1 (any width) is null. */
export function geohashFromInteger(value: bigint, bits: number): string | null {
  if (value < 0n) return null;
  return geohashDisplay(value.toString(2).padStart(bits, '0'), bits);
}

/** Display text → the stored integer. */
export function geohashToInteger(display: string, bits: number): bigint {
  const binary = geohashToBinary(display, bits);
  assert(binary.length === bits, 'a geohash value has its type precision');
  return BigInt(`0b${binary}`);
}

/** Reads one stored value of `bits` precision at row `row`. */
export function readGeohash(bytes: Buffer, row: number, bits: number): string | null {
  const width = geohashWidthBytes(bits);
  const offset = row * width;
  switch (width) {
    case 1: return geohashFromInteger(BigInt(bytes.readInt8(offset)), bits);
    case 2: return geohashFromInteger(BigInt(bytes.readInt16LE(offset)), bits);
    case 4: return geohashFromInteger(BigInt(bytes.readInt32LE(offset)), bits);
    default: return geohashFromInteger(bytes.readBigInt64LE(offset), bits);
  }
}

/** Writes one value (null → -1) of `bits` precision at row `row`. */
export function writeGeohash(bytes: Buffer, row: number, bits: number, display: string | null): void {
  const width = geohashWidthBytes(bits);
  const value = display === null ? -1n : geohashToInteger(display, bits);
  const offset = row * width;
  switch (width) {
    case 1: bytes.writeInt8(Number(value), offset); break;
    case 2: bytes.writeInt16LE(Number(value), offset); break;
    case 4: bytes.writeInt32LE(Number(value), offset); break;
    default: bytes.writeBigInt64LE(value, offset); break;
  }
}

/**
 * make_geohash(lon, lat, bits): halves the longitude range on even bits and the latitude range on odd ones;
 * undefined when a coordinate is out of range.
 */
export function geohashFromCoordinates(lon: number, lat: number, bits: number): string | undefined {
  if (!(lat >= -90 && lat <= 90) || !(lon >= -180 && lon <= 180)) return undefined;
  let minLat = -90;
  let maxLat = 90;
  let minLon = -180;
  let maxLon = 180;
  let binary = '';
  for (let bit = 0; bit < bits; bit++) {
    if (bit % 2 === 0) {
      const middle = (minLon + maxLon) / 2;
      if (lon < middle) { binary += '0'; maxLon = middle; } else { binary += '1'; minLon = middle; }
    } else {
      const middle = (minLat + maxLat) / 2;
      if (lat < middle) { binary += '0'; maxLat = middle; } else { binary += '1'; minLat = middle; }
    }
  }
  return geohashDisplay(binary, bits);
}
