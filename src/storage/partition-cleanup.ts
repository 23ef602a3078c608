// Deletes partition directories nothing refers to any more: superseded versions (after a grace period,
// so readers that pinned them can finish mapping) and, at start-up, leftovers of interrupted commits.
import { join, sep } from 'node:path';
import * as fs from 'node:fs';
import { removeTreeQuietly, type FilesFacade } from '../core/files.js';
import { partitionVersionGraceMs } from '../core/limits.js';
import type { TxnState } from './txn-file.js';
import { partitionDirName } from './txn-file.js';

/** Superseded partition directories waiting for their grace period, by timer. */
const pendingRemovals = new Map<NodeJS.Timeout, string>();

export function schedulePartitionRemoval(files: FilesFacade, dir: string): void {
  const timer = setTimeout(() => {
    pendingRemovals.delete(timer);
    // A failure is retried at the next start-up by removeUnreferencedEntries.
    removeTreeQuietly(files, dir);
  }, partitionVersionGraceMs);
  timer.unref();
  pendingRemovals.set(timer, dir);
}

/**
 * A table directory moved (RENAME TABLE) or went (DROP TABLE, to a tombstone deleted as a whole): its pending
 * removals follow it, or are cancelled. Left as they were, they would name paths inside whatever table takes
 * the old name next, and delete that table's partitions of the same name.
 */
export function moveScheduledRemovals(files: FilesFacade, fromTableDir: string, toTableDir: string | undefined): void {
  const prefix = `${fromTableDir}${sep}`;
  for (const [timer, dir] of [...pendingRemovals]) {
    if (!dir.startsWith(prefix)) continue;
    clearTimeout(timer);
    pendingRemovals.delete(timer);
    if (toTableDir !== undefined) schedulePartitionRemoval(files, join(toTableDir, dir.slice(prefix.length)));
  }
}

/** Start-up clean-up: every directory of the table that _txn does not list (other than wal/) goes. */
export function removeUnreferencedEntries(files: FilesFacade, tableDir: string, txn: TxnState): void {
  const referenced = new Set(txn.partitions.map((entry) => partitionDirName(entry)));
  for (const name of files.list(tableDir)) {
    const path = join(tableDir, name);
    if (name.includes('.tmp-')) {
      files.unlink(path);
      continue;
    }
    if (name === 'wal' || referenced.has(name)) continue;
    if (fs.statSync(path).isDirectory()) files.removeTree(path);
  }
}
