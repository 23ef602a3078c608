// A reader's catalog caches each table's metadata and symbol texts. Nothing tells a worker that a table went,
// so the cache must let go by itself: when a listing no longer has the table, and when its directory name
// comes back holding a new table (a new id); otherwise every dropped table stays in every worker's memory.
import test from 'ava';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine } from '../../../src/engine/engine.js';
import { commitIlpGroup } from '../../../src/engine/ilp-commit.js';
import { stageIlp } from '../../helpers/ilp-stage.js';
import { realFiles } from '../../../src/core/files.js';
import { Catalog } from '../../../src/storage/catalog.js';

function write(engine: Engine, lines: string): void {
  const staged = stageIlp(engine, lines);
  const outcome = commitIlpGroup(engine, [staged])[0];
  if (outcome instanceof Error) throw outcome;
}

function readSymbols(catalog: Catalog, table: string): readonly string[] {
  const snapshot = catalog.openSnapshot(table);
  if (snapshot === undefined) throw new Error(`no table ${table}`);
  return snapshot.symbols(snapshot.meta.columns.findIndex((column) => column.name === 'host'));
}

test('a dropped table leaves the reader cache at the next listing; a table recreated under its name replaces it', (t) => {
  const root = mkdtempSync(join(tmpdir(), 'svc-catalog-cache-'));
  try {
    const engine = new Engine({ rootDir: root, files: realFiles, commitMode: 'nosync', walSegmentBytesMax: 1 << 20, uncommittedRowsMax: 500_000, o3LagMaxMs: 600_000 });
    engine.recover();
    write(engine, 'a,host=x v=1i 1000000\nb,host=y v=1i 1000000\n');
    const reader = new Catalog(engine.dbDir);
    t.deepEqual(readSymbols(reader, 'a'), ['x']);
    t.deepEqual(readSymbols(reader, 'b'), ['y']);
    t.is(reader.symbolCache.size, 2);

    engine.dropTable('b');
    t.deepEqual(reader.listTableNames(), ['a']);
    t.is(reader.symbolCache.size, 1, 'the dropped table is forgotten by the listing');

    engine.dropTable('a');
    write(engine, 'a,host=z v=1i 1000000\n');
    t.deepEqual(readSymbols(reader, 'a'), ['z'], 'the new table of the same name reads its own dictionary');
    t.is(reader.symbolCache.size, 1, 'the old table of that name is forgotten when the new one is read');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('a reader that catches _meta ahead of _txn waits for the writer instead of failing the statement', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'svc-catalog-retry-'));
  try {
    const engine = new Engine({ rootDir: root, files: realFiles, commitMode: 'nosync', walSegmentBytesMax: 1 << 20, uncommittedRowsMax: 500_000, o3LagMaxMs: 600_000 });
    engine.recover();
    write(engine, 'a,host=x v=1i 1000000\n');
    const txnPath = join(engine.dbDir, 'a', '_txn');
    const before = readFileSync(txnPath);
    write(engine, 'a,host=x v=1i,w=2i 2000000\n');
    const after = readFileSync(txnPath);
    // The moment between an ALTER's two writes: the new _meta is in place, _txn still names the old structure.
    writeFileSync(txnPath, before);
    const publisher = new Worker(
      "const { workerData } = require('node:worker_threads'); const fs = require('node:fs');" +
        // Published as the writer publishes _txn, by a rename: a reader never sees a half-written file.
        'Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 25);' +
        "fs.writeFileSync(workerData.path + '.next', workerData.bytes); fs.renameSync(workerData.path + '.next', workerData.path);",
      { eval: true, workerData: { path: txnPath, bytes: after } },
    );
    await new Promise((resolve) => publisher.once('online', resolve));
    const snapshot = new Catalog(engine.dbDir).openSnapshot('a');
    t.deepEqual(snapshot?.meta.columns.map((column) => column.name), ['host', 'v', 'timestamp', 'w']);
    await new Promise((resolve) => publisher.once('exit', resolve));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
