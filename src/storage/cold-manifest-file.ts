// The cold-storage manifest of one table: which objects of the store hold its partitions and in what state
// (`pending` uploaded, not yet in _txn; `live` in _txn with a local copy; `sealed` in _txn, local copy
// dropped; `deleting` no longer named by _txn, deleted after the grace period). The primary's cold-storage
// manager commits it to the store and mirrors the last committed one to `<table dir>/_cold`, which is what
// table_cold_partitions() reads (workers need no store access for it). Pure codec plus one local read.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export type ColdObjectState = 'pending' | 'live' | 'sealed' | 'deleting';
const STATES: readonly ColdObjectState[] = ['pending', 'live', 'sealed', 'deleting'];

export interface ColdObjectEntry {
  readonly partition: string;
  /** Partition directory version the object was uploaded from. */
  readonly version: number;
  readonly key: string;
  readonly etag: string;
  readonly bytes: number;
  readonly state: ColdObjectState;
  readonly changedAtMs: number;
  /** `deleting` only: the object is deleted at or after this wall-clock time. */
  readonly deleteAfterMs?: number;
}

export interface ColdManifestBody {
  readonly format: 'svc-cold-table';
  readonly table: string;
  readonly tableId: number;
  readonly entries: readonly ColdObjectEntry[];
}

/** The local mirror: the body plus the manifest's generation and version in the store. */
export interface ColdManifestMirror {
  readonly generation: number;
  readonly version: number;
  readonly body: ColdManifestBody;
}

export const COLD_MIRROR_FILE = '_cold';

export function encodeColdMirror(mirror: ColdManifestMirror): Buffer {
  return Buffer.from(JSON.stringify(mirror));
}

/** The body of a manifest read from the store, or null when it is not a cold-table manifest. */
export function narrowColdManifestBody(value: unknown): ColdManifestBody | null {
  if (typeof value !== 'object' || value === null) return null;
  const entries = Reflect.get(value, 'entries');
  const table = Reflect.get(value, 'table');
  const tableId = Reflect.get(value, 'tableId');
  if (Reflect.get(value, 'format') !== 'svc-cold-table' || typeof table !== 'string' || typeof tableId !== 'number' || !Array.isArray(entries)) return null;
  const narrowed: ColdObjectEntry[] = [];
  for (const entry of entries) {
    const item = narrowEntry(entry);
    if (item === null) return null;
    narrowed.push(item);
  }
  return { format: 'svc-cold-table', table, tableId, entries: narrowed };
}

function narrowEntry(value: unknown): ColdObjectEntry | null {
  if (typeof value !== 'object' || value === null) return null;
  const get = (name: string): unknown => Reflect.get(value, name);
  const [partition, version, key, etag, bytes, state, changedAtMs, deleteAfterMs] =
    ['partition', 'version', 'key', 'etag', 'bytes', 'state', 'changedAtMs', 'deleteAfterMs'].map(get);
  if (typeof partition !== 'string' || typeof key !== 'string' || typeof etag !== 'string') return null;
  if (typeof version !== 'number' || typeof bytes !== 'number' || typeof changedAtMs !== 'number') return null;
  const known = STATES.find((candidate) => candidate === state);
  if (known === undefined) return null;
  const entry: ColdObjectEntry = { partition, version, key, etag, bytes, state: known, changedAtMs };
  return typeof deleteAfterMs === 'number' ? { ...entry, deleteAfterMs } : entry;
}

/** The mirror in a table directory, or undefined when the table never had a cold object (or it is unreadable). */
export function readColdMirror(tableDir: string): ColdManifestMirror | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(join(tableDir, COLD_MIRROR_FILE), 'utf8'));
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const generation = Reflect.get(parsed, 'generation');
  const version = Reflect.get(parsed, 'version');
  const body = narrowColdManifestBody(Reflect.get(parsed, 'body'));
  if (typeof generation !== 'number' || typeof version !== 'number' || body === null) return undefined;
  return { generation, version, body };
}
