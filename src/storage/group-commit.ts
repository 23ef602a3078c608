// Commits rows to several tables as one unit: after a crash at any point either every table has them or none.
// Each table's _txn is replaced on its own, so the unit needs a commit point of its own, the intent file
// db/_group_commit (a JSON list of committed group ids, replaced atomically):
//   1. every table appends its rows as a group record tagged with a new group id (WAL, durable per commit mode);
//   2. the intent file is written listing the id: this is the commit point;
//   3. every table applies its record (column files, then _txn), as an insert does;
//   4. the intent file is removed once no table has a committed record left to apply.
// Invariant: a group record is replayed at start-up only when its id is in the intent file (Engine.recover), so
// a crash before 2 leaves no table with the group's rows and a crash after 2 gives every table them. A failure
// before 2 (or in 2, whose file is then put back) cuts the records off and fails the group. A table whose apply
// fails in 3 keeps the record pending (TableWriter) and its id stays in every later intent file until it is
// applied. Readers may see one table's rows before another's while 3 runs; what is atomic is the outcome,
// across a crash and across a failed commit.
import { join } from 'node:path';
import { randomInt } from 'node:crypto';
import type { FilesFacade } from '../core/files.js';
import { assert } from '../core/assert.js';
import { StorageError } from '../core/errors.js';
import type { IncomingChunk } from './symbol-ids.js';
import type { CommitResult, GroupRecord, TableWriter } from './table-writer.js';

export const GROUP_INTENT_FILE = '_group_commit';

export interface GroupCommitContext {
  readonly files: FilesFacade;
  readonly dbDir: string;
  /** The intent file is fsynced (cairo.commit.mode=sync). */
  readonly durable: boolean;
  /** Ids of committed groups some table has not applied yet (TableWriter.pendingGroupId of every writer). */
  readonly pendingGroupIds: () => number[];
}

export interface GroupPart {
  readonly writer: TableWriter;
  readonly chunk: IncomingChunk;
}

/** Group ids are random so that an id in a stale intent file never matches a later group's records. */
function newGroupId(): number {
  return randomInt(1, 2 ** 48);
}

function intentPath(dbDir: string): string {
  return join(dbDir, GROUP_INTENT_FILE);
}

export function encodeGroupIntent(groupIds: readonly number[]): Buffer {
  assert(groupIds.length > 0 && groupIds.every((id) => Number.isSafeInteger(id) && id > 0), 'an intent lists positive group ids');
  return Buffer.from(JSON.stringify({ groups: groupIds }), 'utf8');
}

export function decodeGroupIntent(bytes: Buffer, path: string): Set<number> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new StorageError(`corrupt group commit intent [path=${path}]`);
  }
  const groups = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>)['groups'] : undefined;
  if (!Array.isArray(groups) || !groups.every((id) => Number.isSafeInteger(id) && (id as number) > 0)) {
    throw new StorageError(`corrupt group commit intent [path=${path}]`);
  }
  return new Set(groups as number[]);
}

/** Ids of the groups that committed, from the intent file; empty when there is none. */
export function readCommittedGroups(files: FilesFacade, dbDir: string): Set<number> {
  const path = intentPath(dbDir);
  return files.exists(path) ? decodeGroupIntent(files.readFile(path), path) : new Set();
}

/** Removes the intent file once every committed group is applied; a file left behind names only applied groups. */
export function clearGroupIntent(files: FilesFacade, dbDir: string): void {
  try {
    files.unlink(intentPath(dbDir));
  } catch {
    // Harmless: the records of the groups it lists are all applied (at or below each table's _txn walSeq).
  }
}

/** Commits every part, all or none; each part's writer gets one record. Throws when the group is not acknowledged. */
export function commitTableGroup(context: GroupCommitContext, parts: readonly GroupPart[]): CommitResult[] {
  assert(parts.length > 1 && new Set(parts.map((part) => part.writer)).size === parts.length, 'a group commit has one part per table, two tables or more');
  const groupId = newGroupId();
  const records: GroupRecord[] = [];
  try {
    for (const part of parts) records.push(part.writer.appendGroupRecord(part.chunk, groupId));
  } catch (error) {
    discardRecords(parts, records);
    throw error;
  }
  const carried = context.pendingGroupIds();
  const intentError = writeIntent(context, [...carried, groupId]);
  // A failed replace may have landed (its directory fsync failed): take the id back off the disk, as a failed
  // _txn replace is restored. Only when even that fails is the group committed after all, without an answer.
  const committed = intentError === undefined || !restoreIntent(context, carried, groupId);
  if (!committed) {
    discardRecords(parts, records);
    throw intentError;
  }
  const results = applyRecords(parts, records);
  if (context.pendingGroupIds().length === 0) clearGroupIntent(context.files, context.dbDir);
  if (intentError !== undefined) throw intentError;
  return results;
}

function writeIntent(context: GroupCommitContext, groupIds: readonly number[]): unknown {
  try {
    context.files.writeFileAtomic(intentPath(context.dbDir), encodeGroupIntent(groupIds), context.durable);
    return undefined;
  } catch (error) {
    return error;
  }
}

/** Puts the intent file back as it was before this group (listing `carried`); whether the group's id is off the disk. */
function restoreIntent(context: GroupCommitContext, carried: readonly number[], groupId: number): boolean {
  try {
    if (carried.length === 0) context.files.unlink(intentPath(context.dbDir));
    else context.files.writeFileAtomic(intentPath(context.dbDir), encodeGroupIntent(carried), false);
  } catch {
    // Whether the failed write left the id on the disk decides.
  }
  try {
    return !readCommittedGroups(context.files, context.dbDir).has(groupId);
  } catch {
    return false;
  }
}

function discardRecords(parts: readonly GroupPart[], records: readonly GroupRecord[]): void {
  records.forEach((record, k) => parts[k].writer.discardGroupRecord(record));
}

/** Applies every committed record; one that fails gets a second try, then stays pending and the group fails. */
function applyRecords(parts: readonly GroupPart[], records: readonly GroupRecord[]): CommitResult[] {
  assert(parts.length === records.length, 'every part has its group record');
  const results: (CommitResult | undefined)[] = [];
  let failure: unknown;
  records.forEach((record, k) => {
    try {
      results[k] = parts[k].writer.applyGroupRecord(record);
    } catch (error) {
      failure = error;
    }
  });
  if (failure === undefined) return results as CommitResult[];
  failure = undefined;
  parts.forEach((part, k) => {
    if (results[k] !== undefined) return;
    try {
      results[k] = part.writer.settlePending();
    } catch (error) {
      failure = error;
    }
  });
  if (failure !== undefined) throw failure;
  assert(results.every((result) => result !== undefined), 'every record of the group is applied');
  return results;
}
