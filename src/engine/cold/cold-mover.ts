// The asynchronous half of the moves of one store: TO REMOTE streams a partition's data.parquet to the store
// (multipart for large files, off the event loop's critical path), heads it for its ETag and size, records it
// `pending` in the manifest and only then asks the write queue to name it in _txn; DROP LOCAL verifies the
// object (ETag and size) before the queue swaps in the footer-only version. Every write first checks that
// this instance still holds the writer lease. Steps that find the partition changed do nothing.
import type { ObjectStore } from '../../objectstore/object-store.js';
import type { WriterHandle } from '../../objectstore/writer-lease.js';
import { ObjectStoreError } from '../../objectstore/object-store-error.js';
import type { TableWriter } from '../../storage/table-writer.js';
import type { FilesFacade } from '../../core/files.js';
import type { PartitionEntry } from '../../storage/txn-file.js';
import type { ParquetPartitionEncoder } from '../../storage/parquet/parquet-partition-encoder-contract.js';
import { assert } from '../../core/assert.js';
import { coldObjectKey } from './cold-object-key.js';
import type { ColdManifests, ColdTableRef } from './cold-manifests.js';
import { currentEntry, dropLocalCopy, parquetPathOf, publishColdCopy } from './cold-table-steps.js';

/** Runs `work` in the primary's write queue, after every write queued before it. */
export type Exclusive = <T>(work: () => T) => Promise<T>;

export interface RemoteStore {
  readonly store: ObjectStore;
  readonly lease: WriterHandle;
  readonly manifests: ColdManifests;
}

export interface MoverContext {
  readonly exclusive: Exclusive;
  /** The table's writer, or undefined once the table is gone. */
  readonly writerOf: (table: string) => TableWriter | undefined;
  readonly files: FilesFacade;
  readonly encoder: ParquetPartitionEncoder | undefined;
}

export function refOf(writer: TableWriter): ColdTableRef {
  return { table: writer.meta.name, tableId: writer.meta.tableId, dir: writer.dir };
}

/** TO PARQUET for the named partitions that are still native (the conversion runs in the write queue). */
export function convertToParquet(context: MoverContext, table: string, names: readonly string[]): Promise<number> {
  return context.exclusive(() => {
    const writer = context.writerOf(table);
    if (writer === undefined || context.encoder === undefined) return 0;
    const native = names.filter((name) => writer.txn.partitions.some((entry) => entry.name === name && entry.parquetBytes === undefined));
    return native.length === 0 ? 0 : writer.convertPartitions(native, true, context.encoder);
  });
}

interface UploadTarget {
  readonly ref: ColdTableRef;
  readonly entry: PartitionEntry;
  readonly key: string;
  readonly path: string;
}

/** TO REMOTE for one partition; returns false when there was nothing to do (gone, already remote, not Parquet). */
export async function uploadPartition(context: MoverContext, remote: RemoteStore, table: string, name: string): Promise<boolean> {
  const target = await context.exclusive((): UploadTarget | undefined => {
    const writer = context.writerOf(table);
    const entry = writer?.txn.partitions.find((item) => item.name === name);
    if (writer === undefined || entry === undefined || entry.cold !== undefined || entry.parquetBytes === undefined) return undefined;
    const key = coldObjectKey(writer.meta.name, writer.meta.tableId, writer.meta.partitionBy, entry.minTimestamp, entry.version);
    return { ref: refOf(writer), entry, key, path: parquetPathOf(writer, entry) };
  });
  if (target === undefined) return false;
  const { entry, key } = target;
  await remote.lease.assertStillWriter();
  await remote.store.putFile(key, target.path);
  const info = await remote.store.head(key);
  if (info === null || info.sizeBytes !== entry.parquetBytes) {
    throw new ObjectStoreError('rejected', `uploaded object does not match the partition file [store=${remote.store.description}, key=${key}, expected=${entry.parquetBytes ?? 0}, found=${info?.sizeBytes ?? 'none'}]`);
  }
  const copy = { key, etag: info.etag ?? '', bytes: info.sizeBytes, local: true };
  await remote.manifests.addPending(target.ref, {
    partition: entry.name, version: entry.version, key, etag: copy.etag, bytes: copy.bytes, state: 'pending', changedAtMs: Date.now(),
  });
  return context.exclusive(() => {
    const writer = context.writerOf(table);
    return writer !== undefined && publishColdCopy(writer, entry.name, entry.version, copy);
  });
}

/** DROP LOCAL for one partition with a live copy; returns false when there was nothing to do. */
export async function dropLocalPartition(context: MoverContext, remote: RemoteStore, table: string, name: string): Promise<boolean> {
  const entry = await context.exclusive(() => context.writerOf(table)?.txn.partitions.find((item) => item.name === name));
  const cold = entry?.cold;
  if (entry === undefined || cold === undefined || !cold.local) return false;
  // The store must hold exactly the object _txn names before the only local copy goes.
  const info = await remote.store.head(cold.key);
  if (info === null || info.sizeBytes !== cold.bytes || (info.etag ?? '') !== cold.etag) {
    throw new ObjectStoreError('not-found', `the remote copy is missing or differs; local data kept [store=${remote.store.description}, key=${cold.key}, table=${table}, partition=${name}]`);
  }
  await remote.lease.assertStillWriter();
  return context.exclusive(() => {
    const writer = context.writerOf(table);
    if (writer === undefined || currentEntry(writer, name, entry.version) === undefined) return false;
    const done = dropLocalCopy(writer, context.files, name, entry.version);
    assert(!done || writer.txn.partitions.some((item) => item.name === name && item.cold?.local === false), 'a dropped local copy leaves a cold entry');
    return done;
  });
}
