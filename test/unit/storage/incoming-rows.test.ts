// Incoming rows reordered and kept (storage/incoming-rows.ts, what the TCP hold keeps between group commits):
// a gather keeps every column's values, SYMBOL ids included; a copy into reused memory holds the same values
// with each dictionary reduced to the distinct values its rows use, however many concatenations it went through.
import test from 'ava';
import { symbolIdsColumn } from '../../helpers/symbol-ids-column.js';
import { concatIncomingChunks, dictionarySize, symbolIdsToText, type IncomingChunk, type IncomingColumnData } from '../../../src/storage/symbol-ids.js';
import { copyIncomingChunk, gatherIncomingChunk, sliceIncomingChunk } from '../../../src/storage/incoming-rows.js';
import { varColumnFromStrings, varColumnValues } from '../../../src/storage/row-chunk.js';
import { TurnMemory } from '../../../src/core/turn-memory.js';

function longs(values: readonly number[]): IncomingColumnData {
  const bytes = Buffer.alloc(values.length * 8);
  values.forEach((value, k) => bytes.writeBigInt64LE(BigInt(value), k * 8));
  return { kind: 'fixed', width: 8, bytes };
}

function chunk(tags: readonly (string | null)[], numbers: readonly number[], notes: readonly (string | null)[]): IncomingChunk {
  return { rowCount: tags.length, columns: [symbolIdsColumn(tags), longs(numbers), varColumnFromStrings(notes, notes.length)] };
}

/** Every row's values: tag text, number, note. */
function rowsOf(rows: IncomingChunk): [string | null, number, string | null][] {
  const [tags, numbers, notes] = rows.columns;
  if (tags?.kind !== 'symbolIds' || numbers?.kind !== 'fixed' || notes?.kind !== 'var') throw new Error('columns: symbol ids, fixed, var');
  const tagText = symbolIdsToText(tags);
  const tagValues = varColumnValues(tagText, 0, rows.rowCount, false);
  const noteValues = varColumnValues(notes, 0, rows.rowCount, false);
  return Array.from({ length: rows.rowCount }, (_, row) => [
    tagValues[row] === null ? null : String(tagValues[row]), Number(numbers.bytes.readBigInt64LE(row * 8)), noteValues[row] === null ? null : String(noteValues[row]),
  ]);
}

const memory = (): TurnMemory => new TurnMemory({ bytesMax: 1 << 20, idleMs: 60_000, nowMs: () => 0, schedule: () => undefined });

test('a gather reorders every column, SYMBOL ids with their dictionary', (t) => {
  const rows = chunk(['a', 'b', null, 'a'], [1, 2, 3, 4], ['x', null, 'zz', 'w']);
  const scratch = memory();
  scratch.scope(() => {
    const gathered = gatherIncomingChunk(rows, Int32Array.from([3, 1, 0, 2]), 0, 4, scratch);
    t.deepEqual(rowsOf(gathered), [['a', 4, 'w'], ['b', 2, null], ['a', 1, 'x'], [null, 3, 'zz']]);
    t.deepEqual(rowsOf(sliceIncomingChunk(gathered, 1, 3)), [['b', 2, null], ['a', 1, 'x']]);
  });
});

test('a gather in long runs (block copies, the runs found once for all columns) gives every column the rows a per-row gather gives', (t) => {
  const count = 600;
  const tags = Array.from({ length: count }, (_, k) => (k % 7 === 0 ? null : `t${k % 5}`));
  const notes = Array.from({ length: count }, (_, k) => (k % 11 === 0 ? null : 'n'.repeat(k % 4) + String(k)));
  const rows = chunk(tags, Array.from({ length: count }, (_, k) => k * 3), notes);
  // Two ascending runs of 300 rows interleaved in blocks of 50: runs of 50 rows, above the block-copy threshold.
  const order = new Int32Array(count);
  for (let k = 0; k < count; k++) {
    const block = Math.floor(k / 50);
    order[k] = (block % 2) * 300 + Math.floor(block / 2) * 50 + (k % 50);
  }
  const scratch = memory();
  scratch.scope(() => {
    const all = rowsOf(rows);
    t.deepEqual(rowsOf(gatherIncomingChunk(rows, order, 0, count, scratch)), Array.from(order, (row) => all[row]));
    t.deepEqual(rowsOf(gatherIncomingChunk(rows, order, 100, 450, scratch)), Array.from(order.subarray(100, 450), (row) => all[row]));
  });
});

test('a kept copy holds the same rows, each dictionary reduced to the distinct values its rows use', (t) => {
  // Three concatenations share values: their dictionary holds each value once per part.
  const parts = [chunk(['a', 'b', 'c'], [1, 2, 3], ['p', 'q', 'r']), chunk(['b', null, 'a'], [4, 5, 6], [null, 's', 't']), chunk(['a', 'd'], [7, 8], ['u', 'v'])];
  const scratch = memory();
  const kept = memory();
  scratch.scope(() => {
    const joined = concatIncomingChunks(parts, scratch);
    const tail = sliceIncomingChunk(joined, 3, joined.rowCount);
    const copy = kept.scope(() => copyIncomingChunk(tail, kept));
    t.deepEqual(rowsOf(copy), [['b', 4, null], [null, 5, 's'], ['a', 6, 't'], ['a', 7, 'u'], ['d', 8, 'v']]);
    const tags = copy.columns[0];
    t.true(tags?.kind === 'symbolIds' && dictionarySize(tags) === 3, 'b, a and d once each');
    const joinedTags = joined.columns[0];
    t.true(joinedTags?.kind === 'symbolIds' && dictionarySize(joinedTags) === 7);
  });
});
