// Byte planes of fixed-width values: byte 0 of every value, then byte 1 of every value, and so on (the
// "shuffle" filter of Blosc and HDF5). Column values that change slowly (timestamps, counters, keys, prices)
// share their high bytes, which then form long runs: Brotli quality 1 compresses ILP column files about 18x
// instead of 4.7x, and faster, since there is less to encode. A trailing partial value is left as it is.
// The conversions run over whole segments in the encoder thread and on replicas: plain loops over typed
// arrays, 32-bit reads or writes on the interleaved side when the platform is little-endian.

/** Widths that are shuffled; a width of 1 (or anything else) means the bytes are shipped as they are. */
export const VALUE_BYTES_MAX = 32;

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

export function isPlanedWidth(valueBytes: number): boolean {
  return Number.isInteger(valueBytes) && valueBytes >= 2 && valueBytes <= VALUE_BYTES_MAX;
}

/**
 * Writes `source` (interleaved values of `valueBytes` each) as byte planes into `target` at `at`.
 * `source` must start 4-byte aligned for the fast paths (the encoder's scratch buffers do).
 */
export function toBytePlanes(source: Uint8Array, valueBytes: number, target: Uint8Array, at: number): void {
  const count = Math.floor(source.length / valueBytes);
  const whole = count * valueBytes;
  if (LITTLE_ENDIAN && source.byteOffset % 4 === 0 && (valueBytes === 8 || valueBytes === 4)) {
    const words = new Uint32Array(source.buffer, source.byteOffset, whole >>> 2);
    if (valueBytes === 8) planes8(words, count, target, at);
    else planes4(words, count, target, at);
  } else {
    planesAnyWidth(source, valueBytes, count, target, at);
  }
  target.set(source.subarray(whole), at + whole);
}

/** Reverses toBytePlanes: `planes` (as written by it) back to interleaved values in `target`, which must start 4-byte aligned. */
export function fromBytePlanes(planes: Uint8Array, valueBytes: number, target: Uint8Array): void {
  const count = Math.floor(planes.length / valueBytes);
  const whole = count * valueBytes;
  if (LITTLE_ENDIAN && target.byteOffset % 4 === 0 && (valueBytes === 8 || valueBytes === 4)) {
    const words = new Uint32Array(target.buffer, target.byteOffset, whole >>> 2);
    if (valueBytes === 8) interleave8(planes, count, words);
    else interleave4(planes, count, words);
  } else {
    interleaveAnyWidth(planes, valueBytes, count, target);
  }
  target.set(planes.subarray(whole), whole);
}

function planes8(words: Uint32Array, count: number, target: Uint8Array, at: number): void {
  for (let index = 0; index < count; index++) {
    const low = words[2 * index];
    const high = words[2 * index + 1];
    const to = at + index;
    target[to] = low;
    target[to + count] = low >>> 8;
    target[to + 2 * count] = low >>> 16;
    target[to + 3 * count] = low >>> 24;
    target[to + 4 * count] = high;
    target[to + 5 * count] = high >>> 8;
    target[to + 6 * count] = high >>> 16;
    target[to + 7 * count] = high >>> 24;
  }
}

function planes4(words: Uint32Array, count: number, target: Uint8Array, at: number): void {
  for (let index = 0; index < count; index++) {
    const word = words[index];
    const to = at + index;
    target[to] = word;
    target[to + count] = word >>> 8;
    target[to + 2 * count] = word >>> 16;
    target[to + 3 * count] = word >>> 24;
  }
}

function planesAnyWidth(source: Uint8Array, valueBytes: number, count: number, target: Uint8Array, at: number): void {
  for (let index = 0; index < count; index++) {
    const from = index * valueBytes;
    for (let plane = 0; plane < valueBytes; plane++) target[at + plane * count + index] = source[from + plane];
  }
}

function interleave8(planes: Uint8Array, count: number, words: Uint32Array): void {
  for (let index = 0; index < count; index++) {
    words[2 * index] = ((planes[index]) | ((planes[index + count]) << 8) | ((planes[index + 2 * count]) << 16) | ((planes[index + 3 * count]) << 24)) >>> 0;
    words[2 * index + 1] = ((planes[index + 4 * count]) | ((planes[index + 5 * count]) << 8) | ((planes[index + 6 * count]) << 16) | ((planes[index + 7 * count]) << 24)) >>> 0;
  }
}

function interleave4(planes: Uint8Array, count: number, words: Uint32Array): void {
  for (let index = 0; index < count; index++) {
    words[index] = ((planes[index]) | ((planes[index + count]) << 8) | ((planes[index + 2 * count]) << 16) | ((planes[index + 3 * count]) << 24)) >>> 0;
  }
}

function interleaveAnyWidth(planes: Uint8Array, valueBytes: number, count: number, target: Uint8Array): void {
  for (let index = 0; index < count; index++) {
    const to = index * valueBytes;
    for (let plane = 0; plane < valueBytes; plane++) target[to + plane] = planes[plane * count + index];
  }
}
