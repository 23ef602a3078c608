// The _txn side of cold-storage moves, run by the primary in the write queue (so never beside a write to the
// same table). Each step re-checks that the partition is still the version the asynchronous part worked on,
// and does nothing when it changed meanwhile (a late write made a new version): the object it uploaded is then
// an orphan the next reconciliation marks `deleting`. Crash order: object, manifest, _txn, local removal.
import { join } from 'node:path';
import type { FilesFacade } from '../../core/files.js';
import { removeTreeQuietly } from '../../core/files.js';
import { StorageError } from '../../core/errors.js';
import { assert } from '../../core/assert.js';
import type { TableWriter } from '../../storage/table-writer.js';
import type { ColdCopy, PartitionEntry } from '../../storage/txn-file.js';
import { COLD_FOOTER_FILE, partitionDirName } from '../../storage/txn-file.js';
import type { RowChunk } from '../../storage/row-chunk.js';
import { parquetPartitionPath } from '../../storage/parquet/parquet-partition-reader.js';

const FOOTER_TAIL_BYTES = 8;

/** The entry of partition `name` at `version`, or undefined when it changed or went. */
export function currentEntry(writer: TableWriter, name: string, version: number): PartitionEntry | undefined {
  return writer.txn.partitions.find((entry) => entry.name === name && entry.version === version);
}

/** Local path of a partition version's Parquet file. */
export function parquetPathOf(writer: TableWriter, entry: PartitionEntry): string {
  return parquetPartitionPath(join(writer.dir, partitionDirName(entry)));
}

/** TO REMOTE, last step: _txn names the uploaded object. False when the partition changed meanwhile. */
export function publishColdCopy(writer: TableWriter, name: string, version: number, copy: ColdCopy): boolean {
  const entry = currentEntry(writer, name, version);
  if (entry === undefined || entry.cold !== undefined || entry.parquetBytes !== copy.bytes) return false;
  writer.replacePartitionEntries(new Map([[name, { ...entry, cold: copy }]]));
  return true;
}

/** The Parquet file's footer block: FileMetaData, its int32 length and `PAR1`. */
function readFooterBlock(files: FilesFacade, path: string): Buffer {
  const fd = files.openRead(path);
  try {
    const size = files.size(fd);
    const tail = Buffer.alloc(FOOTER_TAIL_BYTES);
    if (size < 12 || files.read(fd, tail, size - FOOTER_TAIL_BYTES) !== FOOTER_TAIL_BYTES || tail.toString('latin1', 4) !== 'PAR1') {
      throw new StorageError(`not a Parquet file [path=${path}]`);
    }
    const footerBytes = tail.readUInt32LE(0) + FOOTER_TAIL_BYTES;
    if (footerBytes > size - 4) throw new StorageError(`corrupt Parquet footer length [path=${path}]`);
    const block = Buffer.alloc(footerBytes);
    if (files.read(fd, block, size - footerBytes) !== footerBytes) throw new StorageError(`short read of a Parquet footer [path=${path}]`);
    return block;
  } finally {
    files.close(fd);
  }
}

/**
 * DROP LOCAL: a new partition version holding only `footer.parquet` replaces the local copy in one _txn; the old
 * directory (with data.parquet) goes through the deferred removal, so queries that pinned it finish. Needs a
 * copy whose object the caller verified in the store. False when the partition changed meanwhile.
 */
export function dropLocalCopy(writer: TableWriter, files: FilesFacade, name: string, version: number): boolean {
  const entry = currentEntry(writer, name, version);
  if (entry === undefined || entry.cold === undefined || !entry.cold.local) return false;
  const footer = readFooterBlock(files, parquetPathOf(writer, entry));
  const nextVersion = writer.txn.txn + 1;
  const dir = join(writer.dir, partitionDirName({ name, version: nextVersion }));
  files.removeTree(dir);
  files.mkdirs(dir);
  try {
    const fd = files.openWrite(join(dir, COLD_FOOTER_FILE));
    try {
      files.write(fd, footer, 0);
      files.fsync(fd);
    } finally {
      files.close(fd);
    }
    files.fsyncDir(dir);
    writer.replacePartitionEntries(new Map([[name, { ...entry, version: nextVersion, cold: { ...entry.cold, local: false } }]]));
  } catch (error) {
    removeTreeQuietly(files, dir);
    throw error;
  }
  assert(writer.txn.txn === nextVersion, 'the footer-only version is the txn that published it');
  return true;
}

/** DROP REMOTE (or DROP LOCAL without a store copy): the partitions leave the table in one _txn. */
export function dropPartitionsNow(writer: TableWriter, names: readonly string[]): void {
  const present = names.filter((name) => writer.txn.partitions.some((entry) => entry.name === name));
  if (present.length === 0) return;
  const empty: RowChunk = { rowCount: 0, columns: [] };
  writer.rewritePartitions(new Map(present.map((name) => [name, empty])));
}
