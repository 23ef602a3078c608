// LruCache keeps at most its bound of entries, evicting the one used longest ago; a read counts as a use.
import test from 'ava';
import { LruCache } from '../../../src/core/lru-cache.js';
import { InternalError } from '../../../src/core/errors.js';

test('evicts the least recently used entry, where a get refreshes an entry', (t) => {
  const cache = new LruCache<string, number>(2);
  t.is(cache.set('a', 1), 0);
  t.is(cache.set('b', 2), 0);
  t.is(cache.get('a'), 1);
  t.is(cache.set('c', 3), 1, 'one eviction makes room');
  t.is(cache.get('b'), undefined, 'b was used longest ago');
  t.is(cache.get('a'), 1);
  t.is(cache.get('c'), 3);
  t.is(cache.size, 2);
});

test('setting an existing key replaces it without evicting', (t) => {
  const cache = new LruCache<string, number>(2);
  cache.set('a', 1);
  cache.set('b', 2);
  t.is(cache.set('a', 10), 0);
  t.is(cache.get('a'), 10);
  t.is(cache.size, 2);
});

test('resize to a smaller bound evicts the oldest entries at once', (t) => {
  const cache = new LruCache<number, number>(10);
  for (let k = 0; k < 10; k++) cache.set(k, k);
  t.is(cache.resize(3), 7);
  t.is(cache.size, 3);
  t.is(cache.entriesMax, 3);
  t.deepEqual([7, 8, 9].map((k) => cache.get(k)), [7, 8, 9]);
  t.is(cache.get(6), undefined);
});

test('a bound below one entry is a programming error', (t) => {
  t.throws(() => new LruCache<string, number>(0), { instanceOf: InternalError });
  t.throws(() => new LruCache<string, number>(2).resize(1.5), { instanceOf: InternalError });
});
