// symbolKeysOf must give exactly the keys a plain decode-and-look-up gives, whatever its byte cache holds:
// repeated, distinct, non-ASCII, long, empty and null values, many more distinct values than cache entries.
import test from 'ava';
import { varColumnFromStrings } from '../../../src/storage/row-chunk.js';
import { symbolKeysOf } from '../../../src/storage/symbol-keys.js';
import { seededRandom } from '../../helpers/seeded-random.js';

function dictionary(): { keyOf: (value: string) => number; values: string[] } {
  const keys = new Map<string, number>();
  const values: string[] = [];
  return {
    values,
    keyOf: (value) => {
      let key = keys.get(value);
      if (key === undefined) {
        key = values.length;
        values.push(value);
        keys.set(value, key);
      }
      return key;
    },
  };
}

test('keys match a plain lookup for 50,000 seeded values', (t) => {
  const random = seededRandom(7);
  const pool = ['A', 'B', 'S42', 'ünï', '', 'x'.repeat(100), 'y'.repeat(64), 'y'.repeat(65)];
  const values: (string | null)[] = [];
  for (let i = 0; i < 50_000; i++) {
    const pick = random();
    values.push(pick < 0.05 ? null : pick < 0.5 ? (pool[Math.floor(random() * pool.length)] as string) : `v${Math.floor(random() * 9000)}`);
  }
  const cached = dictionary();
  const keys = symbolKeysOf(varColumnFromStrings(values, values.length), cached.keyOf);
  const plain = dictionary();
  const expected = values.map((value) => (value === null ? -1 : plain.keyOf(value)));
  t.deepEqual(Array.from(new Int32Array(keys.buffer, keys.byteOffset, values.length)), expected);
  t.deepEqual(cached.values, plain.values);
});
