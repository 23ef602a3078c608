// The LZ4_RAW page decoder against svc's own block compressor: repetitive, random, short and empty inputs decode
// to the bytes that went in; a truncated or lying block is a StorageError, never a wrong result.
import test from 'ava';
import { compressLz4Block } from '../../../../src/output/lz4-block.js';
import { decompressLz4Block } from '../../../../src/storage/parquet/lz4-block-decode.js';
import { StorageError } from '../../../../src/core/errors.js';
import { seededRandom } from '../../../helpers/seeded-random.js';

function inputs(): Record<string, Uint8Array> {
  const random = seededRandom(7);
  const noise = Uint8Array.from({ length: 70_000 }, () => Math.floor(random() * 256));
  const runs = Uint8Array.from({ length: 100_000 }, (_, k) => (k >> 9) & 0xff);
  const timestamps = new Uint8Array(new BigInt64Array(Array.from({ length: 20_000 }, (_, k) => 1704067200000000n + BigInt(k) * 100000n)).buffer);
  const text = new TextEncoder().encode('abcabcabcabd'.repeat(3000));
  return { empty: new Uint8Array(0), one: Uint8Array.of(42), noise, runs, timestamps, text };
}

for (const [name, input] of Object.entries(inputs())) {
  test(`round trip: ${name}`, (t) => {
    const block = compressLz4Block(input);
    t.deepEqual(decompressLz4Block(block, input.length), input);
  });
}

test('a truncated block or a wrong output size is a StorageError', (t) => {
  const input = inputs()['text'] as Uint8Array;
  const block = compressLz4Block(input);
  t.throws(() => decompressLz4Block(block.subarray(0, block.length - 3), input.length), { instanceOf: StorageError });
  t.throws(() => decompressLz4Block(block, input.length + 1), { instanceOf: StorageError });
  t.throws(() => decompressLz4Block(block, input.length - 1), { instanceOf: StorageError });
});
