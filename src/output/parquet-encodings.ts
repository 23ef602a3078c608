// Value encodings of format-version-2 pages, over typed arrays: DELTA_BINARY_PACKED for 32/64-bit integers
// (timestamps shrink to a few bytes per block) and BYTE_STREAM_SPLIT for floats (the same byte of every value
// side by side, which the codecs compress better and faster). Both follow the Parquet Encodings.md layouts.
import { assert } from '../core/assert.js';

const BLOCK_VALUES = 128;
const MINIBLOCKS = 4;
const MINIBLOCK_VALUES = BLOCK_VALUES / MINIBLOCKS;
/** Deltas stay below this so that `delta - minDelta` is still an exact double. */
const DELTA_MAGNITUDE_MAX = 2 ** 52;

/** BYTE_STREAM_SPLIT of `count` values of `width` (4 or 8, or any for the plain loop) bytes. */
export function byteStreamSplit(bytes: Uint8Array, width: number): Uint8Array {
  const count = bytes.length / width;
  assert(Number.isInteger(count), 'byte stream split input holds whole values');
  const out = new Uint8Array(bytes.length);
  if ((width === 4 || width === 8) && bytes.byteOffset % 4 === 0) {
    splitWords(new Int32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4), width / 4, count, out);
    return out;
  }
  for (let b = 0; b < width; b++) {
    const base = b * count;
    for (let i = 0, j = b; i < count; i++, j += width) out[base + i] = bytes[j];
  }
  return out;
}

/** Reads each value as 32-bit words and stores its bytes into the streams (a Uint8Array store keeps the low 8 bits). */
function splitWords(words: Int32Array, wordsPerValue: number, count: number, out: Uint8Array): void {
  for (let w = 0; w < wordsPerValue; w++) {
    const s0 = out.subarray((4 * w) * count, (4 * w + 1) * count);
    const s1 = out.subarray((4 * w + 1) * count, (4 * w + 2) * count);
    const s2 = out.subarray((4 * w + 2) * count, (4 * w + 3) * count);
    const s3 = out.subarray((4 * w + 3) * count, (4 * w + 4) * count);
    for (let i = 0, j = w; i < count; i++, j += wordsPerValue) {
      const word = words[j];
      s0[i] = word;
      s1[i] = word >> 8;
      s2[i] = word >> 16;
      s3[i] = word >> 24;
    }
  }
}

/**
 * DELTA_BINARY_PACKED of little-endian int32 (width 4) or int64 (width 8) values. Int64 values are handled as
 * doubles, exact while every delta stays below 2^52 in magnitude (timestamps, ids, counters); for anything
 * wider it returns undefined and the caller writes the page PLAIN.
 */
export function deltaBinaryPack(bytes: Uint8Array, width: 4 | 8): Uint8Array | undefined {
  const count = bytes.length / width;
  assert(Number.isInteger(count) && bytes.byteOffset % 4 === 0, 'delta input holds whole, aligned values');
  const words = new Int32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4);
  const values = new Float64Array(count);
  if (width === 4) {
    for (let i = 0; i < count; i++) values[i] = words[i];
  } else {
    for (let i = 0; i < count; i++) {
      const hi = words[2 * i + 1];
      // Past ±2^53 a double cannot hold the value itself.
      if (hi >= 2097152 || hi < -2097152) return undefined;
      values[i] = hi * 4294967296 + (words[2 * i] >>> 0);
    }
  }
  const out = new BitWriter(16 + count * width + (count / BLOCK_VALUES + 1) * 24);
  out.varint(BLOCK_VALUES);
  out.varint(MINIBLOCKS);
  out.varint(count);
  out.zigzag(count > 0 ? values[0] : 0);
  const deltas = new Float64Array(BLOCK_VALUES);
  for (let start = 1; start < count; start += BLOCK_VALUES) {
    const end = Math.min(count, start + BLOCK_VALUES);
    let minDelta = Infinity;
    for (let i = start; i < end; i++) {
      // INT32 deltas wrap to 32 bits as the spec requires; int64 deltas are exact (checked below).
      const delta = width === 4 ? (values[i] - values[i - 1]) | 0 : values[i] - values[i - 1];
      if (delta >= DELTA_MAGNITUDE_MAX || delta <= -DELTA_MAGNITUDE_MAX) return undefined;
      deltas[i - start] = delta;
      if (delta < minDelta) minDelta = delta;
    }
    writeBlock(out, deltas, end - start, minDelta);
  }
  return out.finish();
}

/** One block: min delta, four miniblock bit widths, then each miniblock's (delta - min) bit-packed, padded to 32. */
function writeBlock(out: BitWriter, deltas: Float64Array, size: number, minDelta: number): void {
  out.zigzag(minDelta);
  const widths = [0, 0, 0, 0];
  for (let m = 0; m < MINIBLOCKS; m++) {
    let max = 0;
    for (let i = m * MINIBLOCK_VALUES; i < Math.min(size, (m + 1) * MINIBLOCK_VALUES); i++) {
      const adjusted = deltas[i] - minDelta;
      if (adjusted > max) max = adjusted;
    }
    widths[m] = max === 0 ? 0 : Math.floor(Math.log2(max)) + 1;
    // log2 of a double near a power of two can round up; make the width exact.
    while (widths[m] > 0 && max < 2 ** (widths[m] - 1)) widths[m]--;
    while (max >= 2 ** widths[m]) widths[m]++;
  }
  for (let m = 0; m < MINIBLOCKS; m++) out.byte(widths[m]);
  for (let m = 0; m < MINIBLOCKS; m++) {
    const first = m * MINIBLOCK_VALUES;
    // Miniblocks past the last value are not written; a partial one is padded with zeros.
    if (first >= size) break;
    const width = widths[m];
    out.reserve(width * 4);
    for (let i = first; i < first + MINIBLOCK_VALUES; i++) {
      const adjusted = i < size ? deltas[i] - minDelta : 0;
      if (width <= 24) out.bitsNarrow(adjusted, width);
      else out.bits(adjusted, width);
    }
  }
}

/** Little-endian bit packing, least significant bit first, of values up to 53 bits. */
class BitWriter {
  private bytes: Uint8Array;
  private length = 0;
  private pending = 0;
  private pendingBits = 0;

  constructor(capacity: number) {
    this.bytes = new Uint8Array(Math.max(64, Math.ceil(capacity)));
  }

  byte(value: number): void {
    this.ensure(1);
    this.bytes[this.length++] = value;
  }

  varint(value: number): void {
    let rest = value;
    while (rest >= 0x80) {
      this.byte((rest % 0x80) | 0x80);
      rest = Math.floor(rest / 0x80);
    }
    this.byte(rest);
  }

  zigzag(value: number): void {
    this.varint(value >= 0 ? value * 2 : -value * 2 - 1);
  }

  /** Makes room for `extra` more bytes, so the bit writers below need no check per value. */
  reserve(extra: number): void {
    this.ensure(extra + 8);
  }

  /** Appends a non-negative integer below 2^24: with at most 7 bits pending, it all fits one int32. */
  bitsNarrow(value: number, width: number): void {
    let pending = this.pending | (value << this.pendingBits);
    let pendingBits = this.pendingBits + width;
    while (pendingBits >= 8) {
      this.bytes[this.length++] = pending;
      pending >>>= 8;
      pendingBits -= 8;
    }
    this.pending = pending;
    this.pendingBits = pendingBits;
  }

  /** Appends the low `width` bits of a non-negative integer below 2^53, 16 bits at a time. */
  bits(value: number, width: number): void {
    let rest = value;
    let left = width;
    while (left > 16) {
      const low = rest % 65536;
      this.bitsNarrow(low, 16);
      rest = (rest - low) / 65536;
      left -= 16;
    }
    this.bitsNarrow(rest, left);
  }

  finish(): Uint8Array {
    assert(this.pendingBits === 0, 'miniblocks of 32 values always end on a byte boundary');
    return this.bytes.subarray(0, this.length);
  }

  private ensure(extra: number): void {
    if (this.length + extra <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.length + extra));
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }
}
