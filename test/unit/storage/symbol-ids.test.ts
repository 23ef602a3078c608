// SYMBOL ids columns (tags as ids into a per-chunk dictionary) keep their values exactly through every place
// they travel: the worker's builder (repeats, escapes, cut-off rows, many distinct values), the staged file,
// the concatenation of a group's requests (also with text columns) and the WAL record; the writer's key lookup
// asks once per dictionary entry.
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SymbolColumnBuilder } from '../../../src/ilp/symbol-column-builder.js';
import { symbolIdsColumn } from '../../helpers/symbol-ids-column.js';
import { concatIncomingColumns, nullSymbolIds, symbolIdsToKeys, symbolIdsToText, type IncomingColumnData, type SymbolIdsColumnData } from '../../../src/storage/symbol-ids.js';
import { varColumnFromStrings, varColumnValues, type ColumnData } from '../../../src/storage/row-chunk.js';
import { decodeWalRecord, encodeWalRecord } from '../../../src/storage/wal/wal-record.js';
import { StagedChunksWriter, readStagedChunks } from '../../../src/storage/staged-chunks.js';
import { seededRandom } from '../../helpers/seeded-random.js';

function texts(column: IncomingColumnData): (string | null)[] {
  const plain: ColumnData = column.kind === 'symbolIds' ? symbolIdsToText(column) : column;
  if (plain.kind !== 'var') throw new Error('text expected');
  return varColumnValues(plain, 0, plain.offsets.length - 1, false).map((value) => (value === null ? null : String(value)));
}

function seededValues(count: number, distinct: number, seed: number): (string | null)[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => (random() < 0.05 ? null : random() < 0.01 ? 'ünï' : `v${Math.floor(random() * distinct)}`));
}

test('the builder keeps one entry per distinct value and every row its value, across table growth', (t) => {
  const values = seededValues(20_000, 3000, 3);
  const column = symbolIdsColumn(values);
  t.deepEqual(texts(column), values);
  t.is(column.dictionary.offsets.length - 1, new Set(values.filter((value) => value !== null)).size);
});

test('cutting rows off drops the entries only they added; later values find the kept ones', (t) => {
  const builder = new SymbolColumnBuilder('SYMBOL');
  const add = (value: string): void => builder.append(Buffer.from(value), 0, Buffer.byteLength(value));
  for (const value of ['a', 'b', 'a']) add(value);
  add('c');
  add('d');
  builder.truncate(3);
  for (const value of ['b', 'e', 'c']) add(value);
  const column = builder.toColumnData();
  t.deepEqual(texts(column), ['a', 'b', 'a', 'b', 'e', 'c']);
  t.deepEqual(texts(column.dictionary), ['a', 'b', 'e', 'c']);
  builder.truncate(0);
  add('z');
  t.deepEqual(texts(builder.toColumnData().dictionary), ['z']);
});

test('invalid UTF-8 is refused; an empty value is a value, not a null', (t) => {
  const builder = new SymbolColumnBuilder('SYMBOL');
  t.throws(() => builder.append(Buffer.from([0x61, 0xff]), 0, 2), { message: /invalid UTF-8/ });
  builder.append(Buffer.alloc(0), 0, 0);
  builder.appendNull();
  t.deepEqual(texts(builder.toColumnData()), ['', null]);
});

test('keys are looked up once per dictionary entry and match a plain lookup', (t) => {
  const values = seededValues(10_000, 50, 5);
  const asked: string[] = [];
  const known = new Map<string, number>();
  const keyOf = (value: string): number => {
    asked.push(value);
    if (!known.has(value)) known.set(value, known.size);
    return known.get(value) as number;
  };
  const keys = symbolIdsToKeys(symbolIdsColumn(values), keyOf);
  t.is(asked.length, new Set(asked).size);
  t.deepEqual(Array.from(new Int32Array(keys.buffer, keys.byteOffset, values.length)), values.map((value) => (value === null ? -1 : known.get(value) as number)));
});

test('an id past the dictionary fails the key lookup (a corrupt staged file), a null id stays -1', (t) => {
  const column = symbolIdsColumn(['a', null, 'b']);
  const keys = symbolIdsToKeys(column, (value) => (value === 'a' ? 7 : 9));
  t.deepEqual(Array.from(new Int32Array(keys.buffer, keys.byteOffset, 3)), [7, -1, 9]);
  const ids = Buffer.from(column.ids);
  ids.writeInt32LE(2, 8);
  t.throws(() => symbolIdsToKeys({ ...column, ids }, () => 0), { message: /symbol ids point into their dictionary/ });
});

test('concatenation shifts ids past the earlier dictionaries; mixed with text it yields text', (t) => {
  const a = seededValues(500, 20, 7);
  const b = seededValues(300, 30, 8);
  const coded = concatIncomingColumns([symbolIdsColumn(a), nullSymbolIds(4), symbolIdsColumn(b)]);
  t.is(coded.kind, 'symbolIds');
  t.deepEqual(texts(coded), [...a, null, null, null, null, ...b]);
  const mixed = concatIncomingColumns([symbolIdsColumn(a), varColumnFromStrings(b, b.length)]);
  t.is(mixed.kind, 'var');
  t.deepEqual(texts(mixed), [...a, ...b]);
});

test('WAL records and staged files carry ids columns exactly', (t) => {
  const values = seededValues(1000, 40, 9);
  const column = symbolIdsColumn(values);
  const timestamps: ColumnData = { kind: 'fixed', width: 8, bytes: Buffer.alloc(values.length * 8, 1) };
  const decoded = decodeWalRecord(encodeWalRecord(4, { rowCount: values.length, columns: [timestamps, column] }, 9), 0);
  t.truthy(decoded);
  t.deepEqual(decoded?.record.chunk.columns[0], timestamps);
  t.deepEqual(texts(decoded?.record.chunk.columns[1] as IncomingColumnData), values);
  const dir = mkdtempSync(join(tmpdir(), 'svc-symbol-ids-'));
  try {
    const writer = new StagedChunksWriter(join(dir, 'x.chunks'));
    const refs = writer.append([{ rowCount: values.length, columns: [timestamps, column] }, { rowCount: 2, columns: [nullSymbolIds(2)] }]);
    writer.close();
    const [first, second] = readStagedChunks(join(dir, 'x.chunks'), refs);
    t.deepEqual(texts(first?.columns[1] as IncomingColumnData), values);
    t.deepEqual(texts(second?.columns[0] as IncomingColumnData), [null, null]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
