// The designated timestamp as clients write it most: 19 digits of nanoseconds. Its first 16 digits (the
// microseconds) are read four at a time from 32-bit little-endian words (SWAR), so the common line costs
// five word reads instead of two byte-by-byte passes (one to find the digits' end, one to add them up).
// Anything else returns -1 and takes the general path, which alone decides validity and raises the errors.

const CHAR_0 = 48;
const CHAR_N = 110;
const LF = 10;
const CR = 13;
/** Every byte's high nibble of four ASCII digits. */
const DIGIT_HIGH_NIBBLES = 0x30303030;
const HIGH_NIBBLES = 0xf0f0f0f0 | 0;
/** Added to four bytes 0x30-0x39 it keeps their high nibble 3; 0x3a-0x3f turn into 0x40-0x45. */
const ABOVE_NINE = 0x06060606;
const NANOS_TIMESTAMP_DIGITS = 19;

/** The value of the four ASCII digits in `word` (first digit in the low byte), or -1 when a byte is no digit. */
export function fourDigitsValue(word: number): number {
  if ((word & HIGH_NIBBLES) !== DIGIT_HIGH_NIBBLES || ((word + ABOVE_NINE) & HIGH_NIBBLES) !== DIGIT_HIGH_NIBBLES) return -1;
  const digits = word - DIGIT_HIGH_NIBBLES;
  // Byte 0 becomes d0 * 10 + d1 and byte 2 d2 * 10 + d3: each at most 99, so no byte carries into the next.
  const pairs = (digits * 10 + (digits >>> 8)) & 0x00ff00ff;
  return (pairs & 0xff) * 100 + (pairs >>> 16);
}

/**
 * The microseconds of the 19 ASCII digits at `at` (their first 16), or -1 when one is no digit or the value
 * passes 2^53 (a rounded product past it stays past it). The caller checks that `at + 19` bytes are at hand;
 * `view` views the same bytes as `data`.
 */
export function nanosDigitsMicros(view: DataView, data: Uint8Array, at: number): number {
  const w0 = fourDigitsValue(view.getInt32(at, true));
  const w1 = fourDigitsValue(view.getInt32(at + 4, true));
  const w2 = fourDigitsValue(view.getInt32(at + 8, true));
  const w3 = fourDigitsValue(view.getInt32(at + 12, true));
  if ((w0 | w1 | w2 | w3) < 0) return -1;
  for (let k = at + 16; k < at + NANOS_TIMESTAMP_DIGITS; k++) {
    const digit = data[k] - CHAR_0;
    if (digit < 0 || digit > 9) return -1;
  }
  const micros = ((w0 * 10_000 + w1) * 10_000 + w2) * 10_000 + w3;
  return micros <= Number.MAX_SAFE_INTEGER ? micros : -1;
}

/**
 * Where the line break is when the timestamp at `start` has exactly 19 bytes before it (`n`, or no suffix when
 * the request's precision is nanoseconds), or -1; nanosDigitsMicros() then checks they are digits.
 */
export function nanosDigitsLineEnd(data: Uint8Array, start: number, precisionNanos: boolean): number {
  const stop = start + NANOS_TIMESTAMP_DIGITS;
  const lineEnd = data[stop] === CHAR_N ? stop + 1 : precisionNanos ? stop : -1;
  if (lineEnd < 0 || lineEnd >= data.length) return -1;
  const code = data[lineEnd];
  return code === LF || code === CR ? lineEnd : -1;
}
