// Byte planes of fixed-width values: byte 0 of every value, then byte 1 of every value, and so on (the
// "shuffle" filter of Blosc and HDF5). Column values that change slowly (timestamps, counters, keys, prices)
// share their high bytes, which then form long runs: Brotli quality 1 compresses ILP column files about 18x
// instead of 4.7x, and faster, since there is less to encode. A trailing partial value is left as it is.
// The conversions run over whole writes (on replicas) or a write a piece at a time (the encoder thread reads
// a cache-sized piece and planes it into place, toBytePlanesPart): plain loops over typed
// arrays, 32-bit reads and writes when the platform is little-endian. Both directions work a block of
// values at a time through an aligned scratch: the encoder gathers four values' bytes of one plane into a
// 32-bit word and copies each plane's run of the block into place (a quarter of the stores of writing byte by
// byte, which was the encoder thread's largest single cost); replicas copy each plane's run into the scratch
// and read four values' bytes of a plane in one 32-bit read.
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
  toBytePlanesPart(source.subarray(0, whole), valueBytes, target, at, count, 0);
  target.set(source.subarray(whole), at + whole);
}

/**
 * Writes `values` (whole values of `valueBytes` each, 4-byte aligned for the fast paths) as values
 * `firstValue`.. of planes `planeBytes` long that start at `at`: a long range can go through a small buffer
 * a piece at a time (the encoder reads a cache-sized piece, then planes it), with the same result as
 * toBytePlanes over the whole range.
 */
export function toBytePlanesPart(values: Uint8Array, valueBytes: number, target: Uint8Array, at: number, planeBytes: number, firstValue: number): void {
  const count = values.length / valueBytes;
  if (!Number.isInteger(count) || firstValue + count > planeBytes) throw new RangeError(`a part of ${values.length} bytes is not whole ${valueBytes}-byte values inside planes of ${planeBytes}`);
  const planes = { target, at: at + firstValue, stride: planeBytes };
  if (LITTLE_ENDIAN && values.byteOffset % 4 === 0 && (valueBytes === 8 || valueBytes === 4)) {
    planesInBlocks(values, valueBytes, count, planes);
  } else {
    planesAnyWidth(values, valueBytes, count, planes);
  }
}

/** Where planes go: plane `p`'s byte for value `i` of a part lands at `target[at + p * stride + i]`. */
interface PlanesTarget { readonly target: Uint8Array; readonly at: number; readonly stride: number }

/** Reverses toBytePlanes: `planes` (as written by it) back to interleaved values in `target`, which must start 4-byte aligned. */
export function fromBytePlanes(planes: Uint8Array, valueBytes: number, target: Uint8Array): void {
  const count = Math.floor(planes.length / valueBytes);
  const whole = count * valueBytes;
  if (LITTLE_ENDIAN && target.byteOffset % 4 === 0 && (valueBytes === 8 || valueBytes === 4)) {
    interleaveInBlocks(planes, valueBytes, count, target);
  } else {
    interleaveAnyWidth(planes, valueBytes, count, target);
  }
  target.set(planes.subarray(whole), whole);
}

/** Values per block of planesInBlocks (a multiple of 4): its scratch holds a block's planes, 128 KiB at 8 bytes a value. */
const BLOCK_VALUES = 16 * 1024;
const blockWords = new Uint32Array(BLOCK_VALUES * 2);
const blockBytes = new Uint8Array(blockWords.buffer);

/** toBytePlanes for 4- and 8-byte values of a 4-byte aligned source, a block of values at a time. */
function planesInBlocks(source: Uint8Array, valueBytes: 4 | 8, count: number, planes: PlanesTarget): void {
  const { target, at, stride } = planes;
  const words = new Uint32Array(source.buffer, source.byteOffset, (count * valueBytes) >>> 2);
  for (let first = 0; first < count; first += BLOCK_VALUES) {
    const values = Math.min(BLOCK_VALUES, count - first);
    const quads = values >>> 2;
    if (valueBytes === 8) quadPlanes8(words, first * 2, quads, blockWords);
    else quadPlanes4(words, first, quads, blockWords);
    const runBytes = quads * 4;
    for (let plane = 0; plane < valueBytes; plane++) {
      const to = at + plane * stride + first;
      target.set(blockBytes.subarray(plane * runBytes, (plane + 1) * runBytes), to);
      // The block's last values, fewer than four (only the final block has them).
      for (let index = runBytes; index < values; index++) target[to + index] = source[(first + index) * valueBytes + plane];
    }
  }
}

/**
 * The 4x4 byte transpose both directions are made of: byte `p` of words a, b, c, d becomes word `p`, whose
 * byte `k` comes from the k-th of them; word `p` is stored at out[at + p * stride]. Its own inverse.
 */
function transpose4(a: number, b: number, c: number, d: number, out: Uint32Array, at: number, stride: number): void {
  out[at] = (a & 0xff) | ((b & 0xff) << 8) | ((c & 0xff) << 16) | ((d & 0xff) << 24);
  out[at + stride] = ((a >>> 8) & 0xff) | (b & 0xff00) | ((c & 0xff00) << 8) | ((d & 0xff00) << 16);
  out[at + 2 * stride] = ((a >>> 16) & 0xff) | ((b >>> 8) & 0xff00) | (c & 0xff0000) | ((d & 0xff0000) << 8);
  out[at + 3 * stride] = (a >>> 24) | ((b >>> 16) & 0xff00) | ((c >>> 8) & 0xff0000) | (d & 0xff000000);
}

/**
 * Byte `p` of values 4q..4q+3 (8 bytes each, from word `from`) into word `p * quads + q` of `out`, little-endian,
 * so `out`'s bytes are the block's planes one after another.
 */
function quadPlanes8(words: Uint32Array, from: number, quads: number, out: Uint32Array): void {
  for (let quad = 0; quad < quads; quad++) {
    const word = from + 8 * quad;
    // Low words give planes 0-3, high words planes 4-7.
    transpose4(words[word], words[word + 2], words[word + 4], words[word + 6], out, quad, quads);
    transpose4(words[word + 1], words[word + 3], words[word + 5], words[word + 7], out, 4 * quads + quad, quads);
  }
}

/** quadPlanes8 for 4-byte values. */
function quadPlanes4(words: Uint32Array, from: number, quads: number, out: Uint32Array): void {
  for (let quad = 0; quad < quads; quad++) {
    const word = from + 4 * quad;
    transpose4(words[word], words[word + 1], words[word + 2], words[word + 3], out, quad, quads);
  }
}

function planesAnyWidth(source: Uint8Array, valueBytes: number, count: number, planes: PlanesTarget): void {
  const { target, at, stride } = planes;
  for (let index = 0; index < count; index++) {
    const from = index * valueBytes;
    for (let plane = 0; plane < valueBytes; plane++) target[at + plane * stride + index] = source[from + plane];
  }
}

/**
 * fromBytePlanes for 4- and 8-byte values into a 4-byte aligned target, a block at a time: each plane's run
 * of the block is copied into the aligned scratch, so four values' bytes of a plane come in one 32-bit read.
 */
function interleaveInBlocks(planes: Uint8Array, valueBytes: 4 | 8, count: number, target: Uint8Array): void {
  const words = new Uint32Array(target.buffer, target.byteOffset, (count * valueBytes) >>> 2);
  for (let first = 0; first < count; first += BLOCK_VALUES) {
    const values = Math.min(BLOCK_VALUES, count - first);
    const quads = values >>> 2;
    const runBytes = quads * 4;
    for (let plane = 0; plane < valueBytes; plane++) {
      const from = plane * count + first;
      blockBytes.set(planes.subarray(from, from + runBytes), plane * runBytes);
      // The block's last values, fewer than four (only the final block has them).
      for (let index = runBytes; index < values; index++) target[(first + index) * valueBytes + plane] = planes[from + index];
    }
    if (valueBytes === 8) quadValues8(blockWords, quads, words, first * 2);
    else quadValues4(blockWords, quads, words, first);
  }
}

/** Reverses quadPlanes8: word `p * quads + q` of `block` holds byte `p` of values 4q..4q+3; they go to `words` from word `to`. */
function quadValues8(block: Uint32Array, quads: number, words: Uint32Array, to: number): void {
  for (let quad = 0; quad < quads; quad++) {
    const word = to + 8 * quad;
    transpose4(block[quad], block[quads + quad], block[2 * quads + quad], block[3 * quads + quad], words, word, 2);
    transpose4(block[4 * quads + quad], block[5 * quads + quad], block[6 * quads + quad], block[7 * quads + quad], words, word + 1, 2);
  }
}

/** quadValues8 for 4-byte values. */
function quadValues4(block: Uint32Array, quads: number, words: Uint32Array, to: number): void {
  for (let quad = 0; quad < quads; quad++) {
    transpose4(block[quad], block[quads + quad], block[2 * quads + quad], block[3 * quads + quad], words, to + 4 * quad, 1);
  }
}

function interleaveAnyWidth(planes: Uint8Array, valueBytes: number, count: number, target: Uint8Array): void {
  for (let index = 0; index < count; index++) {
    const to = index * valueBytes;
    for (let plane = 0; plane < valueBytes; plane++) target[to + plane] = planes[plane * count + index];
  }
}
