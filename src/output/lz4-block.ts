// LZ4 block compressor (the raw block format, no frame: what Parquet's LZ4_RAW means), in TypeScript so the
// export needs no native addon. Greedy single-pass matcher after the reference lz4 "fast" compressor: a hash
// table of 4-byte sequences over a 64 KiB window, with its skip acceleration over incompressible stretches.
// It keeps the block format's end rules (lz4 doc/lz4_Block_format.md): the last 5 bytes are literals and the
// last match starts at least 12 bytes before the end, so every reader's fast decoder accepts the output.
import { assert } from '../core/assert.js';

/** Smallest match the format encodes (the token's match length field counts from 4). */
const MIN_MATCH_BYTES = 4;
/** Matches reach back at most this far: the offset is a 16-bit field. */
const WINDOW_BYTES_MAX = 65535;
/** The block's last bytes are always literals. */
const LAST_LITERALS_BYTES = 5;
/** A match may not start within this many bytes of the end ("MFLIMIT"). */
const MATCH_START_MARGIN_BYTES = 12;
/** 2^16 hash slots: 256 KiB of Int32, the reference compressor's default table size. */
const HASH_LOG = 16;
/** After 2^6 failed probes the step grows by one byte, so random data is skipped in near-linear time. */
const SKIP_STRENGTH = 6;

/**
 * Where each hashed sequence last occurred, reused by every call of this thread without clearing: a call stores
 * `tableBase + position + 1`, and the next call's base lies above every value stored before, so entries older
 * than the current call read as negative positions (absent). Cleared only when the bases near 2^31.
 */
const hashTable = new Int32Array(1 << HASH_LOG);
let tableBase = 0;
const TABLE_VALUE_MAX = 0x7fffffff;

/** The largest block `inputBytes` bytes can become (all literals, plus one extension byte per 255). */
export function lz4BlockBoundBytes(inputBytes: number): number {
  return inputBytes + Math.floor(inputBytes / 255) + 16;
}

/** Compresses `input` into one LZ4 block; an empty input gives the one-byte empty block. */
export function compressLz4Block(input: Uint8Array): Uint8Array {
  const output = new Uint8Array(lz4BlockBoundBytes(input.length));
  const size = compressLz4BlockInto(input, output);
  assert(size <= output.length, 'an LZ4 block never exceeds its bound');
  return output.subarray(0, size);
}

function read32(bytes: Uint8Array, at: number): number {
  return bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16) | (bytes[at + 3] << 24);
}

/**
 * Hashes the 5 bytes at a position (the reference compressor's choice on 64-bit targets): the slot then tends
 * to hold a match of 5 or more bytes, where a 4-byte hash keeps the latest 4-byte match, often shorter.
 */
function hashOf(sequence: number, fifth: number): number {
  return (Math.imul(sequence, 2654435761) ^ Math.imul(fifth, 2246822519)) >>> (32 - HASH_LOG);
}

/** Greedy match search; returns the number of bytes written to `output`. */
function compressLz4BlockInto(input: Uint8Array, output: Uint8Array): number {
  const length = input.length;
  if (length < MATCH_START_MARGIN_BYTES + 1) return writeLastLiterals(input, 0, output, 0);
  if (tableBase > TABLE_VALUE_MAX - length - 1) {
    hashTable.fill(0);
    tableBase = 0;
  }
  const base = tableBase + 1;
  tableBase += length + 1;
  const matchStartLimit = length - MATCH_START_MARGIN_BYTES;
  const matchEndLimit = length - LAST_LITERALS_BYTES;
  let anchor = 0;
  let at = 0;
  let out = 0;
  let probes = 0;
  while (at < matchStartLimit) {
    const sequence = read32(input, at);
    const slot = hashOf(sequence, input[at + 4]);
    const candidate = hashTable[slot] - base;
    hashTable[slot] = base + at;
    if (candidate < 0 || at - candidate > WINDOW_BYTES_MAX || read32(input, candidate) !== sequence) {
      at += 1 + (probes++ >> SKIP_STRENGTH);
      continue;
    }
    probes = 0;
    let start = at;
    let reference = candidate;
    // Extend backwards over literals that also precede the reference.
    while (start > anchor && reference > 0 && input[start - 1] === input[reference - 1]) {
      start--;
      reference--;
    }
    let end = at + MIN_MATCH_BYTES;
    let referenceEnd = candidate + MIN_MATCH_BYTES;
    while (end < matchEndLimit && input[end] === input[referenceEnd]) {
      end++;
      referenceEnd++;
    }
    out = writeSequence(input, anchor, start - anchor, start - reference, end - start, output, out);
    anchor = end;
    // Index a position inside the match so the next repeat of its tail is found.
    if (end - 2 > start) hashTable[hashOf(read32(input, end - 2), input[end + 2])] = base + end - 2;
    at = end;
  }
  return writeLastLiterals(input, anchor, output, out);
}

/** Writes a length's 255-byte extension bytes (after its 4-bit token field held 15). */
function writeLengthExtension(rest: number, output: Uint8Array, at: number): number {
  let out = at;
  let remaining = rest;
  for (; remaining >= 255; remaining -= 255) output[out++] = 255;
  output[out++] = remaining;
  return out;
}

/** One sequence: token, literal length extension, literals, 16-bit offset, match length extension. */
function writeSequence(input: Uint8Array, literalStart: number, literalBytes: number, offset: number, matchBytes: number, output: Uint8Array, at: number): number {
  assert(offset > 0 && offset <= WINDOW_BYTES_MAX && matchBytes >= MIN_MATCH_BYTES, 'a match has an offset in the window and at least 4 bytes');
  const matchCode = matchBytes - MIN_MATCH_BYTES;
  let out = at;
  output[out++] = (Math.min(literalBytes, 15) << 4) | Math.min(matchCode, 15);
  if (literalBytes >= 15) out = writeLengthExtension(literalBytes - 15, output, out);
  copyLiterals(input, literalStart, literalBytes, output, out);
  out += literalBytes;
  output[out++] = offset & 0xff;
  output[out++] = offset >>> 8;
  if (matchCode >= 15) out = writeLengthExtension(matchCode - 15, output, out);
  return out;
}

/** The closing sequence: a token with only a literal length, then the literals from `literalStart` to the end. */
function writeLastLiterals(input: Uint8Array, literalStart: number, output: Uint8Array, at: number): number {
  const literalBytes = input.length - literalStart;
  let out = at;
  output[out++] = Math.min(literalBytes, 15) << 4;
  if (literalBytes >= 15) out = writeLengthExtension(literalBytes - 15, output, out);
  copyLiterals(input, literalStart, literalBytes, output, out);
  return out + literalBytes;
}

/** Short runs byte by byte (no subarray object per sequence); long ones with one set(). */
function copyLiterals(input: Uint8Array, from: number, count: number, output: Uint8Array, to: number): void {
  if (count < 64) {
    for (let k = 0; k < count; k++) output[to + k] = input[from + k];
  } else {
    output.set(input.subarray(from, from + count), to);
  }
}
