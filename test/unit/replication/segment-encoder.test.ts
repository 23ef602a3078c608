// The segment encoder thread assembles each object's raw bytes in a buffer it keeps for the next object:
// objects of different sizes, one after another, must each decode to exactly their own bytes (none of an
// earlier, larger object's), and a part beyond the kept buffer's bound still encodes whole.
import test from 'ava';
import { SegmentEncoder } from '../../../src/replication/segment-encoder.js';
import type { PartPlan } from '../../../src/replication/capture-parts.js';
import { decodeSegment } from '../../../src/replication/segment-codec.js';

/** One whole-file write of `bytes` held in memory. */
function memoryPlan(path: string, bytes: Buffer): PartPlan {
  return {
    operations: [{ op: 'write', path, offset: 0, length: bytes.length, whole: true }],
    ranges: [{ source: { kind: 'memory', bytes }, position: 0, length: bytes.length }],
  };
}

function patterned(length: number, seed: number): Buffer {
  const bytes = Buffer.allocUnsafe(length);
  for (let index = 0; index < length; index++) bytes[index] = (index * 31 + seed) & 0xff;
  return bytes;
}

test('objects of decreasing and increasing sizes decode to their own bytes only', async (t) => {
  const encoder = new SegmentEncoder();
  t.teardown(() => encoder.close());
  // 20 MiB is past the kept buffer's bound (16 MiB); the others reuse it.
  const sizes = [3_000_000, 1_000, 700_000, 20 * 1024 * 1024, 5_000];
  for (const [index, size] of sizes.entries()) {
    const bytes = patterned(size, index);
    const decoded = await decodeSegment(await encoder.encode(index + 1, memoryPlan(`db/t/f${index}.d`, bytes)), `k${index}`);
    t.is(decoded.seq, index + 1);
    t.is(decoded.body.length, size);
    t.true(decoded.body.equals(bytes), `object ${index} (${size} bytes) holds exactly its bytes`);
  }
});
