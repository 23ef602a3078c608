// An out-of-order merge copies a partition's committed rows into its new version (copyColumnPrefixes): a prefix
// that is most of a file is copied by the kernel and cut to length, a smaller one block by block. Either way
// the new files must hold exactly the committed bytes, without the leftovers an interrupted commit may have
// left past them, and the copy must fail as a write does when the disk fails.
import test from 'ava';
import { mkdtempSync, readFileSync, rmSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { realFiles } from '../../../src/core/files.js';
import { FaultFiles } from '../../../src/core/fault-files.js';
import { appendColumn, columnFilePaths, copyColumnPrefixes } from '../../../src/storage/column-files.js';
import { varColumnFromStrings, type ColumnData } from '../../../src/storage/row-chunk.js';
import type { ColumnMeta } from '../../../src/storage/table-meta.js';

const ROWS = 1000;
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

test('copied prefixes hold exactly the committed bytes, small prefixes and most-of-the-file ones alike', (t) => {
  const root = mkdtempSync(join(tmpdir(), 'svc-copy-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  const old = partitionWithLeftovers(root);
  for (const rows of [1, 10, 300, 499, 500, 501, 800, 999, ROWS]) {
    const target = join(root, `new${rows}`);
    realFiles.mkdirs(target);
    copyColumnPrefixes({ files: realFiles, durable: true }, old, target, [LONG, TEXT], rows);
    t.deepEqual(copiedFiles(target), expectedPrefix(old, rows), `${rows} rows`);
  }
});

test('a copy of most of a file fails as a write does', (t) => {
  const root = mkdtempSync(join(tmpdir(), 'svc-copy-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  const old = partitionWithLeftovers(root);
  const target = join(root, 'new');
  realFiles.mkdirs(target);
  const error = t.throws(() => copyColumnPrefixes({ files: new FaultFiles(realFiles, 'write:1'), durable: false }, old, target, [LONG], 900));
  t.regex(error.message, /injected/);
});
