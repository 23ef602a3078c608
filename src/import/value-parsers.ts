// Scalar text → value parsers over UTF-8 bytes buf[s, e), hand-written so the import never builds a string
// for a number or a timestamp. Failures return NaN (numbers) or a sentinel documented per function; they
// never throw, because a bad value is data, counted by the caller.

/** Powers of ten that are exact doubles; m * 10^k is correctly rounded when m < 2^53 and k ≤ 22 (Clinger). */
const EXACT_POWERS_OF_TEN = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
  1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22];

/** Optional '-' then 1..maxDigits decimal digits, as a number; NaN when malformed or longer. */
function parseSignedDigits(buf: Uint8Array, s: number, e: number, maxDigits: number): number {
  let i = s;
  let negative = false;
  if (i < e && buf[i] === 0x2d) {
    negative = true;
    i++;
  }
  if (i >= e || e - i > maxDigits) return NaN;
  let v = 0;
  for (; i < e; i++) {
    const d = buf[i] - 0x30;
    if (d < 0 || d > 9) return NaN;
    v = v * 10 + d;
  }
  return negative ? -v : v;
}

/** Integer in [-2^31, 2^31); NaN when malformed or out of range. */
export function parseIntBytes(buf: Uint8Array, s: number, e: number): number {
  const v = parseSignedDigits(buf, s, e, 10);
  return v >= -2147483648 && v <= 2147483647 ? v : NaN;
}

/**
 * 64-bit integer with at most 15 digits (always exact as a number); NaN when malformed or longer.
 * Callers fall back to parseLongBigBytes for 16–19 digit values.
 */
export function parseLongBytes(buf: Uint8Array, s: number, e: number): number {
  return parseSignedDigits(buf, s, e, 15);
}

/** Exact 64-bit integer of any length within (Long.MIN_VALUE, Long.MAX_VALUE]; undefined when not one. */
export function parseLongBigBytes(buf: Uint8Array, s: number, e: number): bigint | undefined {
  let i = s;
  if (i < e && buf[i] === 0x2d) i++;
  if (i >= e || e - i > 19) return undefined;
  for (let k = i; k < e; k++) {
    const d = buf[k] - 0x30;
    if (d < 0 || d > 9) return undefined;
  }
  const value = BigInt(latin1(buf, s, e));
  // Long.MIN_VALUE is QuestDB's LONG null, so it is not a storable value.
  return value > -9223372036854775808n && value <= 9223372036854775807n ? value : undefined;
}

/**
 * Decimal or exponent notation; NaN when malformed. The text `NaN` also yields NaN: callers that must tell
 * the two apart check isNanLiteral on the (rare) NaN result.
 */
export function parseDoubleBytes(buf: Uint8Array, s: number, e: number): number {
  let i = s;
  let negative = false;
  if (i < e) {
    const c = buf[i];
    if (c === 0x2d) {
      negative = true;
      i++;
    } else if (c === 0x2b) {
      i++;
    }
  }
  let mantissa = 0;
  let digits = 0;
  let scale = 0;
  let sawDigit = false;
  for (; i < e; i++) {
    const d = buf[i] - 0x30;
    if (d < 0 || d > 9) break;
    sawDigit = true;
    if (digits < 19) {
      mantissa = mantissa * 10 + d;
      if (mantissa !== 0) digits++;
    } else {
      scale++;
    }
  }
  if (i < e && buf[i] === 0x2e) {
    for (i++; i < e; i++) {
      const d = buf[i] - 0x30;
      if (d < 0 || d > 9) break;
      sawDigit = true;
      if (digits < 19) {
        mantissa = mantissa * 10 + d;
        if (mantissa !== 0) digits++;
        scale--;
      }
    }
  }
  if (!sawDigit) return parseDoubleWord(buf, s, e);
  if (i < e && (buf[i] | 0x20) === 0x65) return parseDoubleSlow(buf, s, e);
  if (i !== e) return NaN;
  if (mantissa <= 9007199254740991 && scale >= -22 && scale <= 22) {
    const v = scale < 0 ? mantissa / EXACT_POWERS_OF_TEN[-scale] : mantissa * EXACT_POWERS_OF_TEN[scale];
    return negative ? -v : v;
  }
  return parseDoubleSlow(buf, s, e);
}

/** Exponents and very long mantissas: JavaScript's own correctly rounded conversion on a validated string. */
function parseDoubleSlow(buf: Uint8Array, s: number, e: number): number {
  const text = latin1(buf, s, e);
  return /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text) ? Number(text) : NaN;
}

/** `NaN`, `Infinity`, `-Infinity` as Java prints them; NaN for anything else. */
function parseDoubleWord(buf: Uint8Array, s: number, e: number): number {
  const text = latin1(buf, s, e);
  if (text === 'Infinity' || text === '+Infinity') return Infinity;
  if (text === '-Infinity') return -Infinity;
  return NaN;
}

export function isNanLiteral(buf: Uint8Array, s: number, e: number): boolean {
  return e - s === 3 && buf[s] === 0x4e && buf[s + 1] === 0x61 && buf[s + 2] === 0x4e;
}

/** 1 for `true`, 0 for `false` (ASCII case-insensitive), -1 otherwise. */
export function parseBooleanBytes(buf: Uint8Array, s: number, e: number): number {
  const n = e - s;
  if (n === 4 && (buf[s] | 0x20) === 0x74 && (buf[s + 1] | 0x20) === 0x72 && (buf[s + 2] | 0x20) === 0x75
    && (buf[s + 3] | 0x20) === 0x65) return 1;
  if (n === 5 && (buf[s] | 0x20) === 0x66 && (buf[s + 1] | 0x20) === 0x61 && (buf[s + 2] | 0x20) === 0x6c
    && (buf[s + 3] | 0x20) === 0x73 && (buf[s + 4] | 0x20) === 0x65) return 0;
  return -1;
}

/** Dotted quad → the address as a signed 32-bit value; NaN when malformed. `0.0.0.0` gives 0, the IPV4 null. */
export function parseIpv4Bytes(buf: Uint8Array, s: number, e: number): number {
  let value = 0;
  let part = 0;
  let partDigits = 0;
  let dots = 0;
  for (let i = s; i < e; i++) {
    const c = buf[i];
    if (c === 0x2e) {
      if (partDigits === 0 || dots === 3) return NaN;
      value = value * 256 + part;
      part = 0;
      partDigits = 0;
      dots++;
      continue;
    }
    const d = c - 0x30;
    if (d < 0 || d > 9 || partDigits === 3) return NaN;
    part = part * 10 + d;
    partDigits++;
    if (part > 255) return NaN;
  }
  if (dots !== 3 || partDigits === 0) return NaN;
  return (value * 256 + part) | 0;
}

/** Canonical 8-4-4-4-12 hex UUID → lower-case text; undefined when malformed. */
export function parseUuidBytes(buf: Uint8Array, s: number, e: number): string | undefined {
  if (e - s !== 36) return undefined;
  for (let i = 0; i < 36; i++) {
    const c = buf[s + i];
    if (i === 8 || i === 13 || i === 18 || i === 23) {
      if (c !== 0x2d) return undefined;
    } else if (!((c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x66))) {
      return undefined;
    }
  }
  return latin1(buf, s, e).toLowerCase();
}

/** Latin-1 view of bytes; used only on rare paths (slow number forms, validated ASCII text). */
export function latin1(buf: Uint8Array, s: number, e: number): string {
  return Buffer.from(buf.buffer, buf.byteOffset + s, e - s).toString('latin1');
}

/** UTF-8 text of a field, with a quoted field's doubled quotes (`""`) turned back into one. */
export function decodeField(buf: Uint8Array, s: number, e: number, escaped: number): string {
  const text = Buffer.from(buf.buffer, buf.byteOffset + s, e - s).toString('utf8');
  return escaped === 0 ? text : text.replaceAll('""', '"');
}
