// The `cols` list of /exec parsed as QuestDB parses it: quotes, escapes, trailing commas, case-insensitive
// names, and which failure wins when several names are bad (the first, in list order).
import test from 'ava';
import { resolveColumnList } from '../../../src/http/column-list.js';
import type { OutputColumn } from '../../../src/sql/compiler.js';

const columns: readonly OutputColumn[] = [
  { name: 'a', type: 'INT' }, { name: 'Bee', type: 'DOUBLE' }, { name: 'x,y', type: 'STRING' }, { name: 'µ', type: 'LONG' },
];

function resolve(text: string): ReturnType<typeof resolveColumnList> {
  return resolveColumnList(Buffer.from(text, 'latin1'), columns);
}

function utf8(text: string): Uint8Array {
  return Buffer.from(text, 'utf8');
}

test('names map to result indexes in list order, case-insensitively, repeats allowed', (t) => {
  t.deepEqual(resolve('bee,a,A'), { kind: 'indexes', indexes: [1, 0, 0] });
});

test('a trailing comma ends the list; an empty value lists no columns', (t) => {
  t.deepEqual(resolve('a,'), { kind: 'indexes', indexes: [0] });
  t.deepEqual(resolve(''), { kind: 'indexes', indexes: [] });
});

test('double quotes protect commas and are dropped; a backslash takes the next character', (t) => {
  t.deepEqual(resolve('"x,y",a'), { kind: 'indexes', indexes: [2, 0] });
  t.deepEqual(resolve('x\\,y'), { kind: 'indexes', indexes: [2] });
  t.deepEqual(resolve('"B"ee'), { kind: 'indexes', indexes: [1] });
});

test('UTF-8 names resolve; bytes that are not UTF-8 fail the list', (t) => {
  t.deepEqual(resolveColumnList(utf8('µ'), columns), { kind: 'indexes', indexes: [3] });
  t.deepEqual(resolveColumnList(Uint8Array.of(0xc3, 0x28), columns), { kind: 'badUtf8' });
  t.deepEqual(resolveColumnList(Uint8Array.of(0x61, 0xe2, 0x82), columns), { kind: 'badUtf8' });
});

test('empty and unknown names fail; the first bad name in the list decides which', (t) => {
  t.deepEqual(resolve(','), { kind: 'empty' });
  t.deepEqual(resolve('a,,Bee'), { kind: 'empty' });
  t.deepEqual(resolve('z'), { kind: 'unknown', name: 'z' });
  t.deepEqual(resolve('z,,'), { kind: 'unknown', name: 'z' });
  t.deepEqual(resolve(',z'), { kind: 'empty' });
});
