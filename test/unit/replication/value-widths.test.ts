// The widths captures give the encoder: a partition's column file by its column's storage width (from the
// table's _meta, read again when _meta is replaced), every .i file as int64 offsets, anything else as is.
import test from 'ava';
import { mkdirSync, mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TrackedFiles } from '../../../src/replication/tracked-files.js';
import { ValueWidths } from '../../../src/replication/value-widths.js';

function column(name: string, type: string): Record<string, unknown> {
  return { name, type, fileStem: name, indexed: false, symbolCapacity: 256 };
}

function writeMeta(root: string, columns: readonly Record<string, unknown>[]): void {
  const meta = { formatVersion: 1, tableId: 1, name: 't', columns, timestampIndex: columns.length - 1, partitionBy: 'DAY', walEnabled: true, structureVersion: 0, maxUncommittedRows: 500000, o3MaxLagMs: 600000, dedupKeys: [] };
  // Replaced as the writer replaces it: a new file renamed over the old one.
  writeFileSync(join(root, 'db', 't', '_meta.tmp'), JSON.stringify(meta));
  renameSync(join(root, 'db', 't', '_meta.tmp'), join(root, 'db', 't', '_meta'));
}

test('column files by their type, offsets as int64, everything else as it is; a replaced _meta is read again', (t) => {
  const root = mkdtempSync(join(tmpdir(), 'svc-repl-widths-'));
  mkdirSync(join(root, 'db', 't', '2026-01-01'), { recursive: true });
  writeMeta(root, [column('sym', 'SYMBOL'), column('price', 'DOUBLE'), column('name', 'VARCHAR'), column('flag', 'BOOLEAN'), column('ts', 'TIMESTAMP')]);
  const tracked = new TrackedFiles(root);
  const widths = new ValueWidths(root);
  const stamps = tracked.scan(true);
  const of = (path: string): number => widths.widthOf(path, stamps);
  t.deepEqual(
    ['db/t/2026-01-01/sym.d', 'db/t/2026-01-01/price.d', 'db/t/2026-01-01.7/ts.d', 'db/t/2026-01-01/name.d', 'db/t/2026-01-01/name.i', 'db/t/2026-01-01/flag.d', 'db/t/sym.sym.d', 'db/t/sym.sym.i', 'db/t/_txn', 'db/t/2026-01-01/gone.d'].map(of),
    [4, 8, 8, 1, 8, 1, 1, 8, 1, 1],
  );
  writeMeta(root, [column('sym', 'SYMBOL'), column('price', 'FLOAT'), column('ts', 'TIMESTAMP')]);
  t.is(widths.widthOf('db/t/2026-01-01/price.d', tracked.scan(true)), 4);
});
