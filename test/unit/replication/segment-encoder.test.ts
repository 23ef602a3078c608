// The segment encoder thread assembles each object's raw bytes in a buffer it keeps for the next object:
// objects of different sizes, one after another, must each decode to exactly their own bytes (none of an
// earlier, larger object's), and a part that grows the kept buffer encodes whole. Fixed-width
// writes are stored as byte planes and decode to their own bytes.
import test from 'ava';
import { createHash } from 'node:crypto';
import { SegmentEncoder } from '../../../src/replication/segment-encoder.js';
import type { PartPlan } from '../../../src/replication/capture-parts.js';
import { decodeSegment } from '../../../src/replication/segment-codec.js';

/** One write of `bytes` held in memory at file `offset`, with values of `valueBytes`. */
function memoryPlan(path: string, bytes: Buffer, valueBytes = 1, offset = 0): PartPlan {
  return {
    operations: [{ op: 'write', path, offset, length: bytes.length, whole: offset === 0 }],
    ranges: [{ source: { kind: 'memory', bytes }, position: 0, length: bytes.length, valueBytes }],
  };
}

/** Slowly rising int64 values, as a timestamp or counter column holds them. */
function rising(count: number): Buffer {
  const bytes = Buffer.allocUnsafe(count * 8);
  for (let index = 0; index < count; index++) bytes.writeBigInt64LE(1_700_000_000_000_000n + BigInt(index) * 100_003n, index * 8);
  return bytes;
}

function patterned(length: number, seed: number): Buffer {
  const bytes = Buffer.allocUnsafe(length);
  for (let index = 0; index < length; index++) bytes[index] = (index * 31 + seed) & 0xff;
  return bytes;
}

test('objects of decreasing and increasing sizes decode to their own bytes only', async (t) => {
  const encoder = new SegmentEncoder({ lowPriority: true, store: null });
  t.teardown(() => encoder.close());
  // The first object takes the kept buffer (of its bound's size) and every later one reuses it, larger or smaller
  // (raw-scratch.test.ts covers parts past its bound).
  const sizes = [3_000_000, 1_000, 700_000, 20 * 1024 * 1024, 5_000];
  for (const [index, size] of sizes.entries()) {
    const bytes = patterned(size, index);
    const decoded = await decodeSegment((await encoder.encode(index + 1, memoryPlan(`db/t/f${index}.d`, bytes))).object, `k${index}`);
    t.is(decoded.seq, index + 1);
    t.is(decoded.body.length, size);
    t.true(decoded.body.equals(bytes), `object ${index} (${size} bytes) holds exactly its bytes`);
  }
});

test('fixed-width writes ship as byte planes: smaller objects that decode to the same bytes', async (t) => {
  const encoder = new SegmentEncoder({ lowPriority: true, store: null });
  t.teardown(() => encoder.close());
  const bytes = rising(200_000);
  const plain = (await encoder.encode(1, memoryPlan('db/t/2026-01-01/ts.d', bytes))).object;
  const planed = (await encoder.encode(2, memoryPlan('db/t/2026-01-01/ts.d', bytes, 8))).object;
  t.true(planed.length * 3 < plain.length, `planes ${planed.length} bytes, as they are ${plain.length}`);
  t.true((await decodeSegment(planed, 'k')).body.equals(bytes));
  // An append that does not start at a whole value is stored as it is, and still decodes to its bytes.
  const odd = bytes.subarray(3, 3 + 80_001);
  t.true((await decodeSegment((await encoder.encode(3, memoryPlan('db/t/2026-01-01/ts.d', odd, 8, 8003))).object, 'k')).body.equals(odd));
  t.true((await decodeSegment((await encoder.encode(4, memoryPlan('db/t/2026-01-01/ts.d', odd, 4, 8000))).object, 'k')).body.equals(odd));
});

test('the encoder reports the SHA-256 of the whole object it built', async (t) => {
  const encoder = new SegmentEncoder({ lowPriority: true, store: null });
  t.teardown(() => encoder.close());
  const { object, sha256Hex } = await encoder.encode(1, memoryPlan('db/t/2026-01-01/ts.d', rising(1000), 8));
  t.is(sha256Hex, createHash('sha256').update(object).digest('hex'));
});
