// One table's storage-policy sweep, stage by stage on a fresh _txn each time: TO PARQUET (local conversion),
// TO REMOTE (upload; a copy invalidated by a late write waits the settle time first), DROP LOCAL (local file
// off disk once the store holds a verified copy; without a TO REMOTE stage the partition is dropped, as in
// QuestDB), DROP REMOTE (the partition leaves the table). Then the manifest is reconciled with _txn, which
// marks dropped and invalidated objects `deleting` and deletes those past their grace period.
import type { StoragePolicy } from '../../storage/table-meta.js';
import type { PartitionEntry } from '../../storage/txn-file.js';
import { dueBefore, partitionsEndingBefore, type PolicyStage } from '../storage-policy.js';
import { convertToParquet, dropLocalPartition, uploadPartition, type RemoteStore } from './cold-mover.js';
import type { ColdStorageManager } from './cold-storage-manager.js';
import { dropPartitionsNow } from './cold-table-steps.js';

/** Partitions due for `stage` now, read in the write queue; empty when the stage is not in the policy. */
function duePartitions(manager: ColdStorageManager, table: string, stage: PolicyStage, nowMs: number): Promise<{ policy: StoragePolicy | undefined; due: PartitionEntry[] }> {
  return manager.context.exclusive(() => {
    const writer = manager.context.writerOf(table);
    const policy = writer?.meta.storagePolicy;
    const duration = policy?.[stage];
    if (writer === undefined || policy === undefined || !policy.enabled || duration === undefined) return { policy, due: [] };
    return { policy, due: partitionsEndingBefore(writer.meta, writer.txn, dueBefore(writer.txn, duration, nowMs * 1000)) };
  });
}

export async function sweepTable(manager: ColdStorageManager, table: string, remote: RemoteStore | undefined, nowMs: number): Promise<void> {
  const context = manager.context;
  // First, so a copy a late write invalidated since the last sweep is known before TO REMOTE looks.
  if (remote !== undefined) await manager.reconcile(remote, table);
  const toParquet = await duePartitions(manager, table, 'toParquet', nowMs);
  // No policy at work: only the manifest of manual moves (or of a dropped policy) needed reconciling.
  if (toParquet.policy === undefined || !toParquet.policy.enabled) return;
  // One partition per write-queue turn: encoding blocks the primary, so writes get in between partitions.
  for (const entry of toParquet.due) if (entry.parquetBytes === undefined) await convertToParquet(context, table, [entry.name]);
  if (remote !== undefined) {
    const toRemote = await duePartitions(manager, table, 'toRemote', nowMs);
    const waiting = toRemote.due.filter((entry) => entry.cold === undefined && settled(manager, table, entry.name, nowMs));
    for (const entry of waiting) {
      if (entry.parquetBytes === undefined) await convertToParquet(context, table, [entry.name]);
      await uploadPartition(context, remote, table, entry.name);
    }
  }
  const dropLocal = await duePartitions(manager, table, 'dropLocal', nowMs);
  if (dropLocal.policy?.toRemote === undefined) {
    await context.exclusive(() => {
      const writer = context.writerOf(table);
      if (writer !== undefined) dropPartitionsNow(writer, dropLocal.due.map((entry) => entry.name));
    });
  } else if (remote !== undefined) {
    for (const entry of dropLocal.due) if (entry.cold?.local === true) await dropLocalPartition(context, remote, table, entry.name);
  }
  const dropRemote = await duePartitions(manager, table, 'dropRemote', nowMs);
  if (dropRemote.due.length > 0) {
    await context.exclusive(() => {
      const writer = context.writerOf(table);
      if (writer !== undefined) dropPartitionsNow(writer, dropRemote.due.map((entry) => entry.name));
    });
  }
  if (remote !== undefined) await manager.reconcile(remote, table);
}

function settled(manager: ColdStorageManager, table: string, partition: string, nowMs: number): boolean {
  const at = manager.invalidatedAtMs.get(`${table}/${partition}`);
  if (at === undefined) return true;
  if (nowMs - at < manager.settleMs) return false;
  manager.invalidatedAtMs.delete(`${table}/${partition}`);
  return true;
}
