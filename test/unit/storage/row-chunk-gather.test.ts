// Gathering rows by an index list (storage/row-chunk.ts): orders made of long runs of consecutive rows are
// copied run by run, others row by row; both must give exactly the rows a plain per-row copy gives, for every
// fixed width and for variable-size records, over the whole list and over a part of it.
import test from 'ava';
import { gatherChunk, gatherColumn, varColumnFromStrings, type ColumnData, type RowChunk } from '../../../src/storage/row-chunk.js';

const ROWS = 2000;

/** A deterministic generator, so a failing order can be reproduced. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 2 ** 32;
  };
}

function fixedColumn(width: number): ColumnData {
  const bytes = Buffer.alloc(ROWS * width);
  for (let k = 0; k < bytes.length; k++) bytes[k] = (k * 31 + 7) & 0xff;
  return { kind: 'fixed', width, bytes };
}

function textColumn(): ColumnData {
  return varColumnFromStrings(Array.from({ length: ROWS }, (_, row) => (row % 13 === 0 ? null : `value ${row} ${'x'.repeat(row % 50)}`)), ROWS);
}

/** The rows as buffers, one per row: what any gather must reproduce. */
function rowsOf(column: ColumnData, count: number): Buffer[] {
  if (column.kind === 'fixed') return Array.from({ length: count }, (_, row) => column.bytes.subarray(row * column.width, (row + 1) * column.width));
  return Array.from({ length: count }, (_, row) => column.bytes.subarray(column.offsets[row], column.offsets[row + 1]));
}

/** Orders of ROWS rows: whole blocks of `block` consecutive rows in shuffled order (1: a random permutation). */
function blockOrder(block: number, next: () => number): Int32Array {
  const blocks = Array.from({ length: Math.ceil(ROWS / block) }, (_, k) => k);
  for (let k = blocks.length - 1; k > 0; k--) {
    const j = Math.floor(next() * (k + 1));
    [blocks[k], blocks[j]] = [blocks[j] as number, blocks[k] as number];
  }
  const order: number[] = [];
  for (const start of blocks) for (let row = start * block; row < Math.min(ROWS, (start + 1) * block); row++) order.push(row);
  return Int32Array.from(order);
}

const columns: [string, ColumnData][] = [['width 1', fixedColumn(1)], ['width 2', fixedColumn(2)], ['width 4', fixedColumn(4)], ['width 8', fixedColumn(8)], ['width 16', fixedColumn(16)], ['text', textColumn()]];

for (const block of [1, 7, 32, 100, 2000]) {
  test(`blocks of ${block} consecutive rows gather exactly the rows a per-row copy gives`, (t) => {
    const order = blockOrder(block, random(block));
    for (const [name, column] of columns) {
      const source = rowsOf(column, ROWS);
      for (const [from, to] of [[0, ROWS], [150, 1733], [5, 5]] as const) {
        const expected = Array.from(order.subarray(from, to), (row) => source[row]);
        t.deepEqual(rowsOf(gatherColumn(column, order, from, to), to - from), expected, `${name}, rows ${from}..${to}`);
      }
    }
    const chunk: RowChunk = { rowCount: ROWS, columns: columns.map(([, column]) => column) };
    const gathered = gatherChunk(chunk, order, 10, 1900);
    t.is(gathered.rowCount, 1890);
    gathered.columns.forEach((column, k) => t.deepEqual(rowsOf(column, 1890), rowsOf(gatherColumn(chunk.columns[k] as ColumnData, order, 10, 1900), 1890)));
  });
}
