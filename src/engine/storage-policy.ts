// Storage policies: the DDL (SET / ENABLE / DISABLE / DROP STORAGE POLICY, and the clause in CREATE TABLE)
// validated into TableMeta.storagePolicy, and when a stage is due for a partition: when the partition's end
// lies before min(wall clock, the table's newest timestamp) minus the stage's duration. The newest (active)
// partition is never due.
import type { AlterTableStatement, StoragePolicyClause } from '../sql/compiler.js';
import type { LifecycleDuration, StoragePolicy, TableMeta } from '../storage/table-meta.js';
import type { TxnState, PartitionEntry } from '../storage/txn-file.js';
import { partitionSpanOf } from '../storage/partition-layout.js';
import { addUnits } from '../types/timestamp.js';
import type { TimeUnit } from '../types/timestamp.js';
import { sqlSemanticError } from '../core/errors.js';
import { assertNever } from '../core/assert.js';

type PolicyAction = Extract<AlterTableStatement['action'], { kind: 'storagePolicy' }>;
export type PolicyStage = 'toParquet' | 'toRemote' | 'dropLocal' | 'dropRemote';
export const POLICY_STAGES: readonly PolicyStage[] = ['toParquet', 'toRemote', 'dropLocal', 'dropRemote'];

const UNIT_LETTERS: Readonly<Record<LifecycleDuration['unit'], TimeUnit>> = { HOUR: 'h', DAY: 'd', WEEK: 'w', MONTH: 'M', YEAR: 'y' };
const DISPLAY_LETTERS: Readonly<Record<LifecycleDuration['unit'], string>> = { HOUR: 'h', DAY: 'd', WEEK: 'W', MONTH: 'M', YEAR: 'Y' };
/** Rough hours per unit, only to check that the stages are in order. */
const ORDER_HOURS: Readonly<Record<LifecycleDuration['unit'], number>> = { HOUR: 1, DAY: 24, WEEK: 168, MONTH: 720, YEAR: 8760 };

export function durationText(duration: LifecycleDuration | undefined): string | null {
  return duration === undefined ? null : `${duration.value}${DISPLAY_LETTERS[duration.unit]}`;
}

function stagesOf(clause: StoragePolicyClause): Omit<StoragePolicy, 'enabled'> {
  const stages: { -readonly [K in PolicyStage]?: LifecycleDuration } = {};
  for (const stage of POLICY_STAGES) {
    const ttl = clause[stage];
    if (ttl !== undefined) stages[stage] = { value: ttl.value, unit: ttl.unit };
  }
  return stages;
}

/** A drop never comes before the write it depends on: TO PARQUET ≤ DROP LOCAL, TO REMOTE ≤ DROP LOCAL ≤ DROP REMOTE. */
function checkOrder(policy: StoragePolicy, position: number): void {
  const hours = (stage: PolicyStage): number | undefined => {
    const duration = policy[stage];
    return duration === undefined ? undefined : duration.value * ORDER_HOURS[duration.unit];
  };
  const pairs: readonly [PolicyStage, PolicyStage, string][] = [
    ['toParquet', 'dropLocal', 'TO PARQUET must not be longer than DROP LOCAL'],
    ['toRemote', 'dropLocal', 'TO REMOTE must not be longer than DROP LOCAL'],
    ['dropLocal', 'dropRemote', 'DROP LOCAL must not be longer than DROP REMOTE'],
    ['toRemote', 'dropRemote', 'TO REMOTE must not be longer than DROP REMOTE'],
  ];
  for (const [earlier, later, message] of pairs) {
    const a = hours(earlier);
    const b = hours(later);
    if (a !== undefined && b !== undefined && a > b) throw sqlSemanticError(`invalid storage policy: ${message}`, position);
  }
}

function checkPartitioned(meta: Pick<TableMeta, 'partitionBy' | 'name'>, position: number): void {
  if (meta.partitionBy === 'NONE') throw sqlSemanticError(`storage policies need a partitioned table with a designated timestamp [table=${meta.name}]`, position);
}

/** The policy CREATE TABLE ... STORAGE POLICY(...) gives the new table. */
export function policyOfCreate(meta: Pick<TableMeta, 'partitionBy' | 'name'>, clause: StoragePolicyClause): StoragePolicy {
  checkPartitioned(meta, clause.position);
  const policy: StoragePolicy = { enabled: true, ...stagesOf(clause) };
  checkOrder(policy, clause.position);
  return policy;
}

/** The table's metadata after ALTER TABLE ... STORAGE POLICY; SET changes only the stages it names. */
export function applyPolicyAction(meta: TableMeta, action: PolicyAction): TableMeta {
  const { storagePolicy: current, ...rest } = meta;
  const next = { ...rest, structureVersion: meta.structureVersion + 1 };
  switch (action.change) {
    case 'set': {
      checkPartitioned(meta, action.position);
      const stages = action.stages;
      const policy: StoragePolicy = { ...(current ?? { enabled: true }), ...(stages === undefined ? {} : stagesOf(stages)) };
      checkOrder(policy, stages?.position ?? action.position);
      return { ...next, storagePolicy: policy };
    }
    case 'enable': case 'disable':
      if (current === undefined) throw sqlSemanticError(`table has no storage policy [table=${meta.name}]`, action.position);
      return { ...next, storagePolicy: { ...current, enabled: action.change === 'enable' } };
    case 'drop':
      if (current === undefined) throw sqlSemanticError(`table has no storage policy [table=${meta.name}]`, action.position);
      return next;
    default:
      return assertNever(action.change, 'storage policy change');
  }
}

/** The instant partitions must end before to be due for `duration`, or -Infinity for an empty table. */
export function dueBefore(txn: TxnState, duration: LifecycleDuration, nowMicros: number): number {
  const newest = txn.partitions[txn.partitions.length - 1];
  if (newest === undefined) return -Infinity;
  const reference = Math.min(nowMicros, newest.maxTimestamp);
  return addUnits(reference, -duration.value, UNIT_LETTERS[duration.unit]);
}

/** Partitions (never the newest) whose end lies before `before`. */
export function partitionsEndingBefore(meta: Pick<TableMeta, 'partitionBy'>, txn: TxnState, before: number): PartitionEntry[] {
  return txn.partitions.slice(0, -1).filter((entry) => partitionSpanOf(entry.minTimestamp, meta.partitionBy).end <= before);
}
