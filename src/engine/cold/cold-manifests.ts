// The cold manifests of every table, as the manager writes them: `<table>~<id>/_manifest/` through ManifestLog
// (objects before the manifest naming them; the writer generation checked before each write and carried in
// every manifest), the last body kept in memory and mirrored to `<table dir>/_cold` for table_cold_partitions().
import { join } from 'node:path';
import type { FilesFacade } from '../../core/files.js';
import type { ObjectStore } from '../../objectstore/object-store.js';
import type { WriterHandle } from '../../objectstore/writer-lease.js';
import { ManifestLog } from '../../objectstore/manifest-log.js';
import { ObjectStoreError } from '../../objectstore/object-store-error.js';
import type { ColdManifestBody, ColdObjectEntry } from '../../storage/cold-manifest-file.js';
import { COLD_MIRROR_FILE, encodeColdMirror, narrowColdManifestBody } from '../../storage/cold-manifest-file.js';
import type { TxnState } from '../../storage/txn-file.js';
import { coldTablePrefix } from './cold-object-key.js';
import { reconcileColdEntries, type Reconciled } from './cold-reconcile.js';

/** Manifest versions kept per table: readers in flight may still hold one a few versions old. */
const MANIFEST_VERSIONS_KEPT = 16;

export interface ColdTableRef {
  readonly table: string;
  readonly tableId: number;
  /** Local table directory, where the mirror goes; undefined for a dropped table (no mirror). */
  readonly dir: string | undefined;
}

/** What a dropped table's retirement did this time. */
export interface Retirement {
  /** Objects deleted now (grace period over, or left unnamed under the table's prefix). */
  readonly deleted: number;
  /** Every object of the table is gone: the caller forgets the table. */
  readonly done: boolean;
}

/** A data object's key, as cold-object-key.ts names them; manifests and pointers are not data objects. */
const DATA_OBJECT_KEY = /\/data\.\d+\.parquet$/;

export class ColdManifests {
  private readonly bodies = new Map<string, ColdManifestBody>();

  constructor(private readonly store: ObjectStore, private readonly lease: WriterHandle, private readonly files: FilesFacade) {}

  /** Records an uploaded object as `pending` (before _txn names it). */
  async addPending(ref: ColdTableRef, entry: ColdObjectEntry): Promise<void> {
    const body = await this.current(ref);
    const entries = [...body.entries.filter((item) => item.key !== entry.key), entry];
    await this.commit(ref, { ...body, entries });
  }

  /**
   * Aligns the manifest with `txn`, deletes objects whose grace period ended (after the manifest stopped naming
   * them); returns the partitions whose live copy was invalidated.
   */
  async reconcile(ref: ColdTableRef, txn: TxnState, nowMs: number, graceMs: number): Promise<readonly string[]> {
    return (await this.align(ref, txn, nowMs, graceMs)).invalidated;
  }

  /** reconcileColdEntries applied: the new manifest committed, then the expired objects deleted. */
  private async align(ref: ColdTableRef, txn: Pick<TxnState, 'partitions'>, nowMs: number, graceMs: number): Promise<Reconciled> {
    const body = await this.current(ref);
    const result = reconcileColdEntries(body.entries, txn, nowMs, graceMs);
    if (!result.changed) return result;
    await this.commit(ref, { ...body, entries: result.entries });
    await this.deleteAsWriter(result.expiredKeys);
    return result;
  }

  /** Deletes objects after checking this instance still holds the writer lease. */
  private async deleteAsWriter(keys: readonly string[]): Promise<void> {
    if (keys.length === 0) return;
    await this.lease.assertStillWriter();
    await this.store.delete(keys);
  }

  /**
   * Deletes data objects under the table's prefix that no manifest entry names (an upload a crash left before
   * its `pending` entry), once older than the grace period; returns how many. Call after reconcile.
   */
  async collectUnnamed(ref: ColdTableRef, nowMs: number, graceMs: number): Promise<number> {
    const named = new Set((await this.current(ref)).entries.map((entry) => entry.key));
    const listed = await this.store.list(coldTablePrefix(ref.table, ref.tableId));
    const unnamed = listed.filter((item) => DATA_OBJECT_KEY.test(item.key) && !named.has(item.key) && item.lastModifiedMs + graceMs <= nowMs).map((item) => item.key);
    await this.deleteAsWriter(unnamed);
    return unnamed.length;
  }

  /**
   * One step of a dropped table's retirement: every entry becomes `deleting` (nothing names it any more) and is
   * deleted once its grace period ends; when none is left, every object under the table's prefix goes too
   * (manifest versions, unnamed uploads), the last step.
   */
  async retire(ref: ColdTableRef, nowMs: number, graceMs: number): Promise<Retirement> {
    const result = await this.align(ref, { partitions: [] }, nowMs, graceMs);
    if (result.entries.length > 0) return { deleted: result.expiredKeys.length, done: false };
    const prefix = coldTablePrefix(ref.table, ref.tableId);
    const rest = (await this.store.list(prefix)).map((item) => item.key);
    await this.deleteAsWriter(rest);
    this.bodies.delete(prefix);
    return { deleted: result.expiredKeys.length + rest.filter((key) => DATA_OBJECT_KEY.test(key)).length, done: true };
  }

  private async current(ref: ColdTableRef): Promise<ColdManifestBody> {
    const prefix = coldTablePrefix(ref.table, ref.tableId);
    const cached = this.bodies.get(prefix);
    if (cached !== undefined) return cached;
    const manifest = await new ManifestLog(this.store, prefix).readLatest();
    const empty: ColdManifestBody = { format: 'svc-cold-table', table: ref.table, tableId: ref.tableId, entries: [] };
    const body = manifest === null ? empty : narrowColdManifestBody(manifest.body);
    if (body === null) throw new ObjectStoreError('rejected', `cold manifest body is malformed [store=${this.store.description}, prefix=${prefix}]`);
    this.bodies.set(prefix, body);
    return body;
  }

  private async commit(ref: ColdTableRef, body: ColdManifestBody): Promise<void> {
    const prefix = coldTablePrefix(ref.table, ref.tableId);
    const log = new ManifestLog(this.store, prefix);
    // The cache may be stale if a commit failed half way: it is dropped and read again next time.
    this.bodies.delete(prefix);
    const manifest = await log.commit(this.lease, { uploads: [], objects: body.entries.map((entry) => entry.key), body });
    this.bodies.set(prefix, body);
    if (ref.dir !== undefined) this.files.writeFileAtomic(join(ref.dir, COLD_MIRROR_FILE), encodeColdMirror({ generation: manifest.generation, version: manifest.version, body }), false);
    if (manifest.version % MANIFEST_VERSIONS_KEPT === 0) await log.prune(MANIFEST_VERSIONS_KEPT);
  }
}
