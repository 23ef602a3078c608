// Out-of-order merges by runs must write exactly what the in-memory merge writes: the runs match
// mergePermutation (committed rows first on ties), and the files of the new partition version are the same
// bytes for fixed and variable-size columns, a column the old version lacks, and merges starting mid-partition.
import test from 'ava';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { realFiles } from '../../../src/core/files.js';
import { freshMemory } from '../../../src/core/scratch-memory.js';
import { appendColumn, firstRowAtOrAfter, readPartitionRows } from '../../../src/storage/column-files.js';
import { mergePermutation, mergeRuns, stableSortPermutation, timestampKeysOf } from '../../../src/storage/partition-layout.js';
import { partitionMergeRuns, writeMergeInMemory, writeMergeRuns } from '../../../src/storage/partition-merge.js';
import { varColumnFromStrings, type ColumnData, type RowChunk } from '../../../src/storage/row-chunk.js';
import type { ColumnMeta } from '../../../src/storage/table-meta.js';
import { seededRandom } from '../../helpers/seeded-random.js';

function expand(runs: Int32Array, leftLength: number): number[] {
  const order: number[] = [];
  for (let run = 0; run < runs.length; run += 3) {
    for (let row = runs[run + 1] as number; row < (runs[run + 2] as number); row++) order.push(runs[run] === 0 ? row : leftLength + row);
  }
  return order;
}

function sortedKeys(random: () => number, count: number, spread: number): Float64Array {
  return Float64Array.from(Array.from({ length: count }, () => Math.floor(random() * spread)).sort((a, b) => a - b));
}

test('runs spell the merge permutation, ties and empty sides included', (t) => {
  const random = seededRandom(18);
  for (let round = 0; round < 500; round++) {
    const left = sortedKeys(random, Math.floor(random() * 40), 30);
    const right = sortedKeys(random, Math.floor(random() * 40), 30);
    const runs = mergeRuns(left, right, 1000);
    t.truthy(runs);
    t.deepEqual(expand(runs as Int32Array, left.length), Array.from(mergePermutation(left, right)), `round ${round}`);
    const bigLeft = BigInt64Array.from(left, (value) => BigInt(value) * 1000n + 7n);
    const bigRight = BigInt64Array.from(right, (value) => BigInt(value) * 1000n + 7n);
    t.deepEqual(expand(mergeRuns(bigLeft, bigRight, 1000) as Int32Array, left.length), Array.from(mergePermutation(bigLeft, bigRight)));
  }
  t.is(mergeRuns(Float64Array.of(1, 3, 5), Float64Array.of(2, 4, 6), 5), undefined);
  t.deepEqual(Array.from(mergeRuns(Float64Array.of(5, 6), Float64Array.of(1, 2, 7), 5) as Int32Array), [1, 0, 2, 0, 0, 2, 1, 2, 3]);
});

const COLUMNS: ColumnMeta[] = [
  { name: 'ts', type: 'TIMESTAMP', fileStem: 'ts', indexed: false, symbolCapacity: 256 },
  { name: 'v', type: 'LONG', fileStem: 'v', indexed: false, symbolCapacity: 256 },
  { name: 's', type: 'VARCHAR', fileStem: 's', indexed: false, symbolCapacity: 256 },
  { name: 'late', type: 'DOUBLE', fileStem: 'late', indexed: false, symbolCapacity: 256 },
];

function chunkOf(timestamps: number[], tag: string, withLate: boolean): RowChunk {
  const ts = Buffer.alloc(timestamps.length * 8);
  const v = Buffer.alloc(timestamps.length * 8);
  const late = Buffer.alloc(timestamps.length * 8);
  timestamps.forEach((value, row) => {
    ts.writeBigInt64LE(BigInt(value), row * 8);
    v.writeBigInt64LE(BigInt(row * 3 + tag.length), row * 8);
    late.writeDoubleLE(row / 4, row * 8);
  });
  const text = varColumnFromStrings(timestamps.map((value, row) => (row % 7 === 3 ? null : `${tag}${value}`)), timestamps.length);
  const columns: ColumnData[] = [{ kind: 'fixed', width: 8, bytes: ts }, { kind: 'fixed', width: 8, bytes: v }, text, { kind: 'fixed', width: 8, bytes: late }];
  return { rowCount: timestamps.length, columns: withLate ? columns : columns.slice(0, 3) };
}

function filesOf(dir: string): Record<string, string> {
  return Object.fromEntries(readdirSync(dir).sort().map((name) => [name, readFileSync(join(dir, name)).toString('hex')]));
}

test('a merge by runs writes the same files as the merge in memory', (t) => {
  const root = mkdtempSync(join(tmpdir(), 'svc-merge-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  const session = { files: realFiles, durable: false };
  const random = seededRandom(9);
  let merged = 0;
  for (let round = 0; round < 20; round++) {
    const old = join(root, `old${round}`);
    realFiles.mkdirs(old);
    const committed = Array.from(sortedKeys(random, 50 + Math.floor(random() * 200), 1000));
    const oldChunk = chunkOf(committed, 'old', false);
    // The old version lacks the `late` column: its files are absent, its rows read as nulls.
    COLUMNS.slice(0, 3).forEach((column, k) => appendColumn(session, old, column, oldChunk.columns[k] as ColumnData, 0));
    const blocks = round % 2 === 0 ? [200, 400] : [Math.floor(random() * 1000)];
    const incoming = blocks.flatMap((start) => Array.from(sortedKeys(random, 30, 50), (value) => start + value)).sort((a, b) => a - b);
    const rows = chunkOf(incoming, 'new', true);
    const keysOf = (chunk: RowChunk): Float64Array => timestampKeysOf(chunk.columns[0] as ColumnData, chunk.rowCount, false) as Float64Array;
    const kept = firstRowAtOrAfter(realFiles, old, COLUMNS[0] as ColumnMeta, committed.length, incoming[0] as number);
    const runs = partitionMergeRuns(realFiles, old, COLUMNS[0] as ColumnMeta, kept, committed.length, keysOf(rows), freshMemory);
    if (runs === undefined) continue;
    const byRuns = join(root, `runs${round}`);
    const inMemory = join(root, `memory${round}`);
    realFiles.mkdirs(byRuns);
    realFiles.mkdirs(inMemory);
    const written = writeMergeRuns(session, old, byRuns, COLUMNS, kept, rows, runs);
    const tail = readPartitionRows(realFiles, old, COLUMNS, kept, committed.length);
    t.is(writeMergeInMemory(session, old, inMemory, COLUMNS, kept, tail, rows, keysOf, []), written);
    t.deepEqual(filesOf(byRuns), filesOf(inMemory), `round ${round}`);
    merged++;
  }
  t.true(merged >= 15, 'most rounds merge in a few runs');
});


test('stableSortPermutation merges a few ascending runs exactly as a stable sort orders them', (t) => {
  const random = seededRandom(27);
  for (let round = 0; round < 300; round++) {
    const runs = 1 + Math.floor(random() * (round % 3 === 0 ? 100 : 9));
    const values = Array.from({ length: runs }, () => Array.from(sortedKeys(random, Math.floor(random() * 30), 40))).flat();
    const expected = values.map((value, row) => ({ value, row })).sort((a, b) => a.value - b.value || a.row - b.row).map((entry) => entry.row);
    t.deepEqual(Array.from(stableSortPermutation(Float64Array.from(values))), expected, `round ${round}`);
    t.deepEqual(Array.from(stableSortPermutation(BigInt64Array.from(values, (value) => BigInt(value)))), expected, `round ${round} (ns)`);
  }
});
