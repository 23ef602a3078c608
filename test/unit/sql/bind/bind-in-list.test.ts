// The symbol key set behind `sym IN (...)` and `sym = 'x'`: membership by key + 1 (slot 0 is the null key),
// rebuilt when the dictionary is another one or has grown, and safe for a batch without a dictionary.
import test from 'ava';
import { SymbolKeySet } from '../../../../src/sql/bind/bind-in-list.js';

test('membership by key + 1, null in slot 0', (t) => {
  const set = new SymbolKeySet(new Set(['b', null]));
  const dictionary = ['a', 'b', 'c'];
  t.deepEqual([...set.of(dictionary)], [1, 0, 1, 0]);
  t.is(set.of(dictionary), set.bitmap, 'the same dictionary reuses the bitmap');
});

test('a grown dictionary (append-only) or another one rebuilds the bitmap', (t) => {
  const set = new SymbolKeySet(new Set(['d']));
  const dictionary = ['a', 'b'];
  t.deepEqual([...set.of(dictionary)], [0, 0, 0]);
  dictionary.push('c', 'd');
  t.deepEqual([...set.of(dictionary)], [0, 0, 0, 0, 1]);
  t.deepEqual([...set.of(['d'])], [0, 1]);
});

test('a batch without a dictionary has only null keys', (t) => {
  t.deepEqual([...new SymbolKeySet(new Set([null])).of(undefined)], [1]);
  t.deepEqual([...new SymbolKeySet(new Set(['a'])).of(undefined)], [0]);
});
