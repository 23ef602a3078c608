// Runtime helpers of the GEOHASH, LONG256 and INTERVAL functions and casts. Values are in their query-time
// text forms (types/geohash.ts, types/long256.ts, types/interval-value.ts); null is null.
import { sqlRuntimeError } from '../../core/errors.js';
import { randomBelow } from '../../core/random.js';
import { geohashDisplay, geohashFromBase32, geohashFromCoordinates, geohashToBinary } from '../../types/geohash.js';
import { encodeInterval, formatInterval, intervalBound } from '../../types/interval-value.js';
import { formatLong256, parseLong256 } from '../../types/long256.js';

const LONG_NULL = -9223372036854775808n;

export const typesRuntime = {
  /** Text → GEOHASH of `bits` (base32, at most 12 characters read); `to` names the type in the error. */
  castToGeohash(text: string | null, bits: number, from: string, to: string, position: number): string | null {
    if (text === null) return null;
    const value = geohashFromBase32(text, bits);
    if (value === undefined) throw sqlRuntimeError(`inconvertible value: \`${text}\` [${from} -> ${to}]`, position);
    return value;
  },
  /** A GEOHASH narrowed from `fromBits` to `toBits` (toBits <= fromBits, checked at bind time). */
  narrowGeohash: (value: string | null, fromBits: number, toBits: number): string | null =>
    (value === null ? null : geohashDisplay(geohashToBinary(value, fromBits), toBits)),
  /** Whether a GEOHASH starts with one of the prefixes (binary digits, each no longer than `bits`). */
  geohashWithin(value: string | null, bits: number, prefixes: readonly string[]): boolean {
    if (value === null) return false;
    const binary = geohashToBinary(value, bits);
    for (let k = 0; k < prefixes.length; k++) if (binary.startsWith(prefixes[k])) return true;
    return false;
  },
  /** WITHIN with prefixes computed per row (`prefixBits` is each one's precision); null prefixes never match. */
  geohashWithinAny(value: string | null, bits: number, prefixes: readonly (string | null)[], prefixBits: readonly number[]): boolean {
    if (value === null) return false;
    const binary = geohashToBinary(value, bits);
    for (let k = 0; k < prefixes.length; k++) {
      const prefix = prefixes[k];
      const size = prefixBits[k];
      if (prefix !== null && prefix !== undefined && size <= bits && binary.startsWith(geohashToBinary(prefix, size))) return true;
    }
    return false;
  },
  makeGeohash: (lon: number, lat: number, bits: number): string | null => geohashFromCoordinates(lon, lat, bits) ?? null,
  rndGeohash(bits: number): string {
    let binary = '';
    for (let bit = 0; bit < bits; bit++) binary += randomBelow(2) === 1 ? '1' : '0';
    return geohashDisplay(binary, bits);
  },
  castToLong256(text: string | null, from: string, position: number): string | null {
    if (text === null || text.length === 0) return null;
    const value = parseLong256(text);
    if (value === undefined) throw sqlRuntimeError(`inconvertible value: \`${text}\` [${from} -> LONG256]`, position);
    return value;
  },
  rndLong256(): string {
    let value = 0n;
    for (let word = 0; word < 8; word++) value = (value << 32n) | BigInt(randomBelow(0x100000000));
    return formatLong256(value);
  },
  /** Four longs (NaN is the LONG null, Long.MIN_VALUE), least significant first; all four null is null. */
  toLong256(l0: number, l1: number, l2: number, l3: number): string | null {
    if (l0 !== l0 && l1 !== l1 && l2 !== l2 && l3 !== l3) return null;
    let value = 0n;
    for (const word of [l3, l2, l1, l0]) value = (value << 64n) | BigInt.asUintN(64, word !== word ? LONG_NULL : BigInt(Math.trunc(word)));
    return formatLong256(value);
  },
  makeInterval(lo: number, hi: number, position: number): string | null {
    if (lo !== lo || hi !== hi) return null;
    if (lo > hi) throw sqlRuntimeError('invalid interval boundaries', position);
    return encodeInterval(lo, hi);
  },
  intervalText: (value: string | null): string | null => (value === null ? null : formatInterval(value)),
  intervalBound: (value: string | null, index: 0 | 1): number => (value === null ? NaN : intervalBound(value, index)),
};
