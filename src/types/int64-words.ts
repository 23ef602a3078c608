// 64-bit integers as storage holds them: little-endian int32 word pairs over an Int32Array view of int64
// bytes, to and from JS numbers, so hot loops never build a BigInt. Long.MIN_VALUE is the null of LONG, DATE and
// TIMESTAMP.

const TWO_POW_32 = 4294967296;

/** Writes an integral number (NaN → Long.MIN_VALUE, the null) as the two words of int64 `index`. */
export function writeInt64Words(words: Int32Array, index: number, value: number): void {
  if (value !== value) {
    words[index * 2] = 0;
    words[index * 2 + 1] = -2147483648;
    return;
  }
  const high = Math.floor(value / TWO_POW_32);
  words[index * 2] = (value - high * TWO_POW_32) | 0;
  words[index * 2 + 1] = high | 0;
}

/** The first `count` int64 values of a word-pair view as numbers, Long.MIN_VALUE (the null) as NaN. */
export function int64WordsToNumbers(words: Int32Array, count: number): Float64Array {
  const numbers = new Float64Array(count);
  for (let k = 0; k < count; k++) {
    const hi = words[2 * k + 1];
    const lo = words[2 * k];
    numbers[k] = hi === -2147483648 && lo === 0 ? NaN : hi * TWO_POW_32 + (lo >>> 0);
  }
  return numbers;
}
