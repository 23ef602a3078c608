// _meta codec: a table's structure (columns, types, designated timestamp, partitioning, settings).
// Written atomically by the primary on every structure change; structureVersion increases by one each time.
import { isDesignatedTimestampType } from '../types/timestamp-ns.js';
import type { ColumnType } from '../types/column-type.js';
import { isColumnTypeName } from '../types/column-type.js';
import { PARTITION_UNITS, type PartitionUnit } from '../types/timestamp.js';
import { assert } from '../core/assert.js';
import { StorageError } from '../core/errors.js';

export interface ColumnMeta {
  readonly name: string;
  readonly type: ColumnType;
  /** Stable file-name stem: survives renames, so a renamed column keeps its files. */
  readonly fileStem: string;
  readonly indexed: boolean;
  readonly symbolCapacity: number;
  /** SYMBOL `CACHE` / `NOCACHE`; absent means the default (cached). */
  readonly symbolCached?: boolean;
  /** `INDEX CAPACITY n`; absent means the default block capacity. */
  readonly indexCapacity?: number;
}

export interface TableMeta {
  readonly formatVersion: 1;
  readonly tableId: number;
  readonly name: string;
  readonly columns: readonly ColumnMeta[];
  /** Index into columns of the designated timestamp, or -1. */
  readonly timestampIndex: number;
  readonly partitionBy: PartitionUnit;
  readonly walEnabled: boolean;
  readonly structureVersion: number;
  readonly maxUncommittedRows: number;
  readonly o3MaxLagMs: number;
  /** Column names of DEDUP UPSERT KEYS (always including the designated timestamp), empty when off. */
  readonly dedupKeys: readonly string[];
  /** `TTL n UNIT`, kept for SHOW CREATE TABLE and tables(); absent when the table has none. */
  readonly ttl?: LifecycleDuration;
  /** STORAGE POLICY stages (engine/storage-policy.ts); absent when the table has none. */
  readonly storagePolicy?: StoragePolicy;
}

export interface LifecycleDuration {
  readonly value: number;
  readonly unit: 'HOUR' | 'DAY' | 'WEEK' | 'MONTH' | 'YEAR';
}

export interface StoragePolicy {
  /** DISABLE STORAGE POLICY keeps the stages and stops the sweep from acting on them. */
  readonly enabled: boolean;
  readonly toParquet?: LifecycleDuration;
  readonly toRemote?: LifecycleDuration;
  readonly dropLocal?: LifecycleDuration;
  readonly dropRemote?: LifecycleDuration;
}


export function encodeTableMeta(meta: TableMeta): Buffer {
  assertTableMeta(meta, 'encoding _meta');
  return Buffer.from(JSON.stringify(meta), 'utf8');
}

export function decodeTableMeta(bytes: Buffer, path: string): TableMeta {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new StorageError(`corrupt table metadata [path=${path}]`);
  }
  const meta = narrowTableMeta(parsed, path);
  assertTableMeta(meta, 'decoding _meta');
  return meta;
}

function narrowTableMeta(value: unknown, path: string): TableMeta {
  if (typeof value !== 'object' || value === null) throw new StorageError(`corrupt table metadata [path=${path}]`);
  const record = value as Record<string, unknown>;
  const columns = record['columns'];
  if (!Array.isArray(columns)) throw new StorageError(`corrupt table metadata: columns [path=${path}]`);
  const partitionBy = record['partitionBy'];
  if (!PARTITION_UNITS.includes(partitionBy as PartitionUnit)) {
    throw new StorageError(`corrupt table metadata: partitionBy [path=${path}]`);
  }
  return {
    formatVersion: 1,
    tableId: Number(record['tableId']),
    name: String(record['name']),
    columns: columns.map((column: unknown) => narrowColumnMeta(column, path)),
    timestampIndex: Number(record['timestampIndex']),
    partitionBy: partitionBy as PartitionUnit,
    walEnabled: record['walEnabled'] === true,
    structureVersion: Number(record['structureVersion']),
    maxUncommittedRows: Number(record['maxUncommittedRows']),
    o3MaxLagMs: Number(record['o3MaxLagMs']),
    dedupKeys: Array.isArray(record['dedupKeys']) ? record['dedupKeys'].map(String) : [],
    ...narrowTtl(record['ttl']),
    ...narrowStoragePolicy(record['storagePolicy']),
  };
}

function narrowColumnMeta(value: unknown, path: string): ColumnMeta {
  if (typeof value !== 'object' || value === null) throw new StorageError(`corrupt column metadata [path=${path}]`);
  const record = value as Record<string, unknown>;
  const type = record['type'];
  if (!isColumnTypeName(type)) throw new StorageError(`corrupt column type [path=${path}]`);
  return {
    name: String(record['name']),
    type,
    fileStem: String(record['fileStem']),
    indexed: record['indexed'] === true,
    symbolCapacity: Number(record['symbolCapacity'] ?? 256),
    ...(typeof record['symbolCached'] === 'boolean' ? { symbolCached: record['symbolCached'] } : {}),
    ...(typeof record['indexCapacity'] === 'number' ? { indexCapacity: record['indexCapacity'] } : {}),
  };
}

const TTL_UNITS = ['HOUR', 'DAY', 'WEEK', 'MONTH', 'YEAR'] as const;

function narrowDuration(value: unknown): LifecycleDuration | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  const unit = TTL_UNITS.find((candidate) => candidate === record['unit']);
  return unit === undefined || typeof record['value'] !== 'number' ? undefined : { value: record['value'], unit };
}

function narrowTtl(value: unknown): Pick<TableMeta, 'ttl'> {
  const ttl = narrowDuration(value);
  return ttl === undefined ? {} : { ttl };
}

const POLICY_STAGES = ['toParquet', 'toRemote', 'dropLocal', 'dropRemote'] as const;

function narrowStoragePolicy(value: unknown): Pick<TableMeta, 'storagePolicy'> {
  if (typeof value !== 'object' || value === null) return {};
  const stages: { -readonly [K in (typeof POLICY_STAGES)[number]]?: LifecycleDuration } = {};
  for (const stage of POLICY_STAGES) {
    const duration = narrowDuration(Reflect.get(value, stage));
    if (duration !== undefined) stages[stage] = duration;
  }
  return { storagePolicy: { enabled: Reflect.get(value, 'enabled') !== false, ...stages } };
}

export function assertTableMeta(meta: TableMeta, why: string): void {
  assert(Number.isInteger(meta.tableId) && meta.tableId > 0, `${why}: tableId`);
  assert(meta.columns.length > 0, `${why}: a table has at least one column`);
  assert(meta.timestampIndex >= -1 && meta.timestampIndex < meta.columns.length, `${why}: timestampIndex in range`);
  if (meta.timestampIndex >= 0) {
    const column = meta.columns[meta.timestampIndex];
    assert(column !== undefined && isDesignatedTimestampType(column.type), `${why}: designated column is a TIMESTAMP`);
  } else {
    assert(meta.partitionBy === 'NONE', `${why}: partitioning needs a designated timestamp`);
  }
  const names = new Set(meta.columns.map((column) => column.name.toLowerCase()));
  assert(names.size === meta.columns.length, `${why}: column names are unique`);
}

export function findColumnIndex(meta: TableMeta, name: string): number {
  const lower = name.toLowerCase();
  return meta.columns.findIndex((column) => column.name.toLowerCase() === lower);
}
