// An out-of-order merge copies a partition's committed rows into its new version (copyColumnPrefixes) through
// one reused block: for prefixes shorter and longer than the block, the new files must hold exactly the
// committed bytes, without the leftovers an interrupted commit may have left past them, and without bytes a
// previous, longer copy left in the block; a failing disk fails the copy.
import test from 'ava';
import { mkdtempSync, readFileSync, rmSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { realFiles } from '../../../src/core/files.js';
import { FaultFiles } from '../../../src/core/fault-files.js';
import { appendColumn, columnFilePaths, copyColumnPrefixes } from '../../../src/storage/column-files.js';
import { varColumnFromStrings, type ColumnData } from '../../../src/storage/row-chunk.js';
import type { ColumnMeta } from '../../../src/storage/table-meta.js';

/** More rows than one copy block holds (1 MB: 131,072 LONG values), so copies take several blocks. */
const ROWS = 200_000;
const LONG: ColumnMeta = { name: 'v', type: 'LONG', fileStem: 'v', indexed: false, symbolCapacity: 0 };
const TEXT: ColumnMeta = { name: 's', type: 'VARCHAR', fileStem: 's', indexed: false, symbolCapacity: 0 };

function longColumn(rows: number): ColumnData {
  const bytes = Buffer.alloc(rows * 8);
  for (let row = 0; row < rows; row++) bytes.writeBigInt64LE(BigInt(row * 7919 - 5), row * 8);
  return { kind: 'fixed', width: 8, bytes };
}

/** A partition directory with ROWS committed rows of both columns, and leftover bytes past them in every file. */
function partitionWithLeftovers(root: string): string {
  const dir = join(root, 'old');
  const session = { files: realFiles, durable: false };
  realFiles.mkdirs(dir);
  appendColumn(session, dir, LONG, longColumn(ROWS), 0);
  appendColumn(session, dir, TEXT, varColumnFromStrings(Array.from({ length: ROWS }, (_, row) => (row % 5 === 0 ? null : `value ${row}`)), ROWS), 0);
  for (const column of [LONG, TEXT]) {
    const paths = columnFilePaths(dir, column.fileStem);
    appendFileSync(paths.data, Buffer.alloc(64, 0xee));
    if (column === TEXT) appendFileSync(paths.index, Buffer.alloc(24, 0xee));
  }
  return dir;
}

/** The bytes the first `rows` rows of each column's files hold, read from the committed files. */
function expectedPrefix(dir: string, rows: number): Record<string, string> {
  const long = readFileSync(columnFilePaths(dir, 'v').data).subarray(0, rows * 8);
  const index = readFileSync(columnFilePaths(dir, 's').index);
  const textEnd = Number(index.readBigInt64LE(rows * 8));
  return {
    v: long.toString('hex'),
    s: readFileSync(columnFilePaths(dir, 's').data).subarray(0, textEnd).toString('hex'),
    si: index.subarray(0, (rows + 1) * 8).toString('hex'),
  };
}

function copiedFiles(dir: string): Record<string, string> {
  return {
    v: readFileSync(columnFilePaths(dir, 'v').data).toString('hex'),
    s: readFileSync(columnFilePaths(dir, 's').data).toString('hex'),
    si: readFileSync(columnFilePaths(dir, 's').index).toString('hex'),
  };
}

test('copied prefixes hold exactly the committed bytes, whatever the copy before them left in the block', (t) => {
  const root = mkdtempSync(join(tmpdir(), 'svc-copy-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  const old = partitionWithLeftovers(root);
  for (const rows of [ROWS, 1, ROWS - 1, 10, 131_071, 131_072, 131_073, 150_000]) {
    const target = join(root, `new${rows}`);
    realFiles.mkdirs(target);
    copyColumnPrefixes({ files: realFiles, durable: true }, old, target, [LONG, TEXT], rows);
    t.deepEqual(copiedFiles(target), expectedPrefix(old, rows), `${rows} rows`);
  }
});

test('a copy fails when its first write fails', (t) => {
  const root = mkdtempSync(join(tmpdir(), 'svc-copy-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  const old = partitionWithLeftovers(root);
  const target = join(root, 'new');
  realFiles.mkdirs(target);
  const error = t.throws(() => copyColumnPrefixes({ files: new FaultFiles(realFiles, 'write:1'), durable: false }, old, target, [LONG], 150_000));
  t.regex(error.message, /injected/);
});
