// Byte planes (the segment encoder's shuffle of fixed-width values): the layout is byte 0 of every value,
// then byte 1..., a trailing partial value stays as it is, and every width round-trips whatever the
// alignment of the planar side (the fast 4- and 8-byte paths and the general one).
import test from 'ava';
import { fromBytePlanes, isPlanedWidth, toBytePlanes, toBytePlanesPart } from '../../../src/replication/byte-planes.js';

function patterned(length: number, seed: number): Buffer {
  const bytes = Buffer.allocUnsafeSlow(length);
  for (let index = 0; index < length; index++) bytes[index] = (index * 131 + seed * 7 + (index >> 5)) & 0xff;
  return bytes;
}

test('two 4-byte values become four planes of two bytes', (t) => {
  const source = Buffer.from([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  const planed = Buffer.alloc(source.length);
  toBytePlanes(source, 4, planed, 0);
  t.deepEqual([...planed], [1, 5, 2, 6, 3, 7, 4, 8, 9]);
});

test('every width round-trips, with a trailing partial value, into and out of unaligned positions', (t) => {
  for (const width of [2, 3, 4, 8, 16, 32]) {
    for (const length of [0, 1, width - 1, width * 5, width * 1000 + 3]) {
      for (const at of [0, 3]) {
        const source = patterned(length, width);
        const planed = Buffer.alloc(length + at + 2);
        toBytePlanes(source, width, planed, at);
        if (length >= width * 2) t.notDeepEqual(planed.subarray(at, at + length), source, `width ${width} moves bytes`);
        const back = Buffer.allocUnsafeSlow(length);
        fromBytePlanes(planed.subarray(at, at + length), width, back);
        t.true(back.equals(source), `width ${width}, ${length} bytes at ${at}`);
      }
    }
  }
});

/** The layout by definition, one byte at a time: byte `plane` of value `index` goes to `plane * count + index`. */
function planesByDefinition(source: Uint8Array, width: number): Buffer {
  const count = Math.floor(source.length / width);
  const planed = Buffer.from(source);
  for (let index = 0; index < count; index++) {
    for (let plane = 0; plane < width; plane++) planed[plane * count + index] = source[index * width + plane] ?? -1;
  }
  return planed;
}

test('the 4- and 8-byte paths lay out planes as the definition does and read them back, across block boundaries and with 1-3 values past the last whole group of four', (t) => {
  // 16 Ki values is the fast path's block: counts around it and around multiples of four.
  for (const width of [4, 8]) {
    for (const count of [1, 3, 4, 5, 7, 1000, 16 * 1024 - 1, 16 * 1024, 16 * 1024 + 1, 16 * 1024 + 6, 40_003]) {
      const source = patterned(count * width + 5, count);
      const planed = Buffer.alloc(source.length + 3);
      toBytePlanes(source, width, planed, 3);
      t.true(planed.subarray(3).equals(planesByDefinition(source, width)), `width ${width}, ${count} values`);
      const back = Buffer.alloc(source.length);
      fromBytePlanes(planed.subarray(3), width, back);
      t.true(back.equals(source), `width ${width}, ${count} values read back`);
    }
  }
});

test('widths outside 2..32 are not planed', (t) => {
  t.deepEqual([0, 1, 2, 8, 32, 33, 2.5].map(isPlanedWidth), [false, false, true, true, true, false, false]);
});

test('values planed a piece at a time, through an aligned buffer, lay out as planing them whole does', (t) => {
  for (const width of [2, 3, 4, 8]) {
    const count = 70_001;
    const source = patterned(count * width, width);
    const whole = Buffer.alloc(count * width + 5);
    toBytePlanes(source, width, whole, 5);
    const pieces = Buffer.alloc(count * width + 5);
    const piece = Buffer.allocUnsafeSlow(4096 * width);
    for (let first = 0; first < count; first += 4096) {
      const values = Math.min(4096, count - first);
      piece.set(source.subarray(first * width, (first + values) * width));
      toBytePlanesPart(piece.subarray(0, values * width), width, pieces, 5, count, first);
    }
    t.true(pieces.equals(whole), `width ${width}`);
  }
  t.throws(() => toBytePlanesPart(Buffer.alloc(12), 8, Buffer.alloc(64), 0, 8, 0), { message: /not whole 8-byte values/ });
  t.throws(() => toBytePlanesPart(Buffer.alloc(16), 8, Buffer.alloc(64), 0, 8, 7), { message: /inside planes of 8/ });
});
