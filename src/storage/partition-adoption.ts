// Builds a new partition directory of a table out of a partition staged elsewhere (an import's, written by
// a worker in the column-file layout): column files are renamed into place rather than copied, and SYMBOL
// text is resolved to the table's keys. Nothing here is visible to readers until the writer publishes _txn;
// a directory left behind by a failure or a crash is not referenced and is removed at the next start.
import type { ColumnMeta } from './table-meta.js';
import type { VarColumnData } from './row-chunk.js';
import type { WriteSession } from './column-files.js';
import { appendColumn, columnFilePaths, readPartitionRows } from './column-files.js';
import { isVariableSize } from '../types/column-type.js';
import { assert } from '../core/assert.js';
import { adoptSymbolRowsMax } from '../core/limits.js';

/** A staged partition offered to a table: rows in designated-timestamp order, for a partition it does not have yet. */
export interface AdoptedPartition {
  readonly name: string;
  readonly rowCount: number;
  readonly minTimestamp: number;
  readonly maxTimestamp: number;
  /** Directory of the staged column files. */
  readonly dir: string;
  /**
   * Per table column: the staged column holding its values (same storage type; SYMBOL and UUID as text records),
   * or undefined when the upload had none (the partition then has no file for it: all null).
   */
  readonly columns: readonly (ColumnMeta | undefined)[];
}

/** Turns staged SYMBOL text into int32 keys of table column k. */
export type SymbolResolver = (columnIndex: number, text: VarColumnData) => Buffer;

export function adoptPartitionFiles(session: WriteSession, dir: string, columns: readonly ColumnMeta[], staged: AdoptedPartition, resolve: SymbolResolver): void {
  assert(staged.columns.length === columns.length, 'an adopted partition names a source for every table column');
  const files = session.files;
  files.mkdirs(dir);
  columns.forEach((column, k) => {
    const source = staged.columns[k];
    if (source === undefined) return;
    const target = columnFilePaths(dir, column.fileStem);
    if (column.type === 'SYMBOL') {
      writeSymbolKeys(session, dir, column, staged, source, (text) => resolve(k, text));
      return;
    }
    assert(source.type === column.type, 'staged columns have the table column type');
    const from = columnFilePaths(staged.dir, source.fileStem);
    files.rename(from.data, target.data);
    if (isVariableSize(column.type)) files.rename(from.index, target.index);
    if (session.durable) {
      fsyncFile(session, target.data);
      if (isVariableSize(column.type)) fsyncFile(session, target.index);
    }
  });
  if (session.durable) files.fsyncDir(dir);
}

/** Reads the staged text in slices (bounded memory for any partition size) and appends their keys. */
function writeSymbolKeys(session: WriteSession, dir: string, column: ColumnMeta, staged: AdoptedPartition, source: ColumnMeta, resolve: (text: VarColumnData) => Buffer): void {
  for (let from = 0; from < staged.rowCount; from += adoptSymbolRowsMax) {
    const to = Math.min(staged.rowCount, from + adoptSymbolRowsMax);
    const text = readPartitionRows(session.files, staged.dir, [source], from, to).columns[0];
    assert(text !== undefined && text.kind === 'var', 'staged SYMBOL values are text records');
    appendColumn(session, dir, column, { kind: 'fixed', width: 4, bytes: resolve(text) }, from);
  }
}

function fsyncFile(session: WriteSession, path: string): void {
  const fd = session.files.openWrite(path);
  try {
    session.files.fsync(fd);
  } finally {
    session.files.close(fd);
  }
}
