// Brings a table's cold manifest in line with its _txn, which is the truth for what the table contains:
// objects _txn names are `live` (local copy kept) or `sealed` (local copy dropped); anything else was left by
// an interrupted move (`pending`), invalidated by a late write or dropped with its partition, and becomes
// `deleting` with a deadline; `deleting` entries past their deadline are returned for deletion. Pure.
import type { ColdObjectEntry } from '../../storage/cold-manifest-file.js';
import type { TxnState } from '../../storage/txn-file.js';

export interface Reconciled {
  readonly entries: readonly ColdObjectEntry[];
  readonly changed: boolean;
  /** Keys whose grace period ended: delete the objects, then commit `entries` (which no longer list them). */
  readonly expiredKeys: readonly string[];
  /** Partitions whose live copy stopped being named by _txn (a late write): re-upload only after a settle time. */
  readonly invalidated: readonly string[];
}

export function reconcileColdEntries(entries: readonly ColdObjectEntry[], txn: Pick<TxnState, 'partitions'>, nowMs: number, graceMs: number): Reconciled {
  const named = new Map<string, boolean>();
  const partitionsNamed = new Map<string, { partition: string; version: number; etag: string; bytes: number }>();
  for (const entry of txn.partitions) {
    if (entry.cold === undefined) continue;
    named.set(entry.cold.key, entry.cold.local);
    partitionsNamed.set(entry.cold.key, { partition: entry.name, version: entry.version, etag: entry.cold.etag, bytes: entry.cold.bytes });
  }
  let changed = false;
  const expiredKeys: string[] = [];
  const invalidated: string[] = [];
  const result: ColdObjectEntry[] = [];
  for (const entry of entries) {
    const local = named.get(entry.key);
    if (local !== undefined) {
      const state = local ? 'live' : 'sealed';
      changed ||= entry.state !== state;
      result.push(entry.state === state ? entry : { ...entry, state, changedAtMs: nowMs });
      partitionsNamed.delete(entry.key);
      continue;
    }
    if (entry.state !== 'deleting') {
      if (entry.state === 'live') invalidated.push(entry.partition);
      const { deleteAfterMs: _ignored, ...rest } = entry;
      result.push({ ...rest, state: 'deleting', changedAtMs: nowMs, deleteAfterMs: nowMs + graceMs });
      changed = true;
    } else if ((entry.deleteAfterMs ?? 0) <= nowMs) {
      expiredKeys.push(entry.key);
      changed = true;
    } else {
      result.push(entry);
    }
  }
  // Named by _txn and missing from the manifest (a manifest rolled back by hand): listed again.
  for (const [key, item] of partitionsNamed) {
    result.push({ ...item, key, state: named.get(key) === true ? 'live' : 'sealed', changedAtMs: nowMs });
    changed = true;
  }
  return { entries: result, changed, expiredKeys, invalidated };
}
