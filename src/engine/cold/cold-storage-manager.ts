// Primary only: runs storage policies and the manual cold moves. One operation at a time (a promise chain), so
// reconciliation never races an upload of this process. The store is opened and the writer lease of its root
// claimed lazily (at start, then at each sweep until it works): without a store, or while it is unreachable,
// TO PARQUET and DROP REMOTE still run and the store-bound stages wait for a later sweep.
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import type { Engine } from '../engine.js';
import type { AlterTableStatement } from '../../sql/compiler.js';
import { sqlSemanticError, SvcError } from '../../core/errors.js';
import { getLogger } from '../../log/logger.js';
import { openObjectStore } from '../../objectstore/open-object-store.js';
import { claimWriter } from '../../objectstore/writer-lease.js';
import { WriterLeaseError } from '../../objectstore/object-store-error.js';
import type { ObjectStore } from '../../objectstore/object-store.js';
import { selectInactivePartitions } from '../ddl-partitions.js';
import { ColdManifests } from './cold-manifests.js';
import { convertToParquet, dropLocalPartition, refOf, uploadPartition, type Exclusive, type MoverContext, type RemoteStore } from './cold-mover.js';
import { sweepTable } from './policy-sweep.js';
import { droppedColdTables, forgetDroppedColdTable, hadColdManifest } from './cold-dropped-tables.js';

const log = getLogger('cold-storage');
const INSTANCE_ID_FILE = '.cold-instance-id';
/** Shutdown waits this long at most for the lease release to reach the store. */
const CLOSE_RELEASE_WAIT_MS = 2000;
const FIRST_SWEEP_DELAY_MS = 5000;

export interface ColdStorageOptions {
  readonly engine: Engine;
  /** cold.storage.object.store, or null when cold storage is off. */
  readonly connection: string | null;
  readonly exclusive: Exclusive;
  readonly checkIntervalMs: number;
  readonly deleteGraceMs: number;
  readonly reuploadSettleMs: number;
  /** Writer lease timing (tests shorten it); defaults of objectstore/writer-lease.ts otherwise. */
  readonly leaseMs?: number;
  readonly settleMs?: number;
}

type ColdAction = Extract<AlterTableStatement['action'], { kind: 'coldPartition' }>;

export class ColdStorageManager {
  private chain: Promise<unknown> = Promise.resolve();
  private remote: RemoteStore | undefined;
  private connecting: Promise<RemoteStore> | undefined;
  private store: ObjectStore | undefined;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  /** `table/partition` → when its live copy was invalidated by a late write (re-upload waits the settle time). */
  readonly invalidatedAtMs = new Map<string, number>();
  readonly context: MoverContext;

  constructor(private readonly options: ColdStorageOptions) {
    const engine = options.engine;
    // After close, a move in flight stops at its next _txn step, exactly as if the process had died there.
    const exclusive: Exclusive = (work) => (this.closed ? Promise.reject(new SvcError('SVC_STORAGE', 'cold storage is shutting down', 503)) : options.exclusive(work));
    this.context = {
      exclusive, writerOf: (table) => engine.writer(table), files: engine.options.files, encoder: engine.options.parquetEncoder,
    };
  }

  start(): void {
    if (this.options.connection !== null) void this.serialize(() => this.connect()).catch((error: unknown) => log.error(`cold storage: store not available yet, retried at the next sweep: ${(error as Error).message}`));
    // Workers take their listening socket from the primary, whose event loop a Parquet conversion blocks: the
    // first sweep waits until they are up.
    this.scheduleSweep(Math.max(this.options.checkIntervalMs, FIRST_SWEEP_DELAY_MS));
  }

  /** The next sweep starts `delayMs` after the previous one ended, so slow sweeps never pile up. */
  private scheduleSweep(delayMs: number): void {
    if (this.closed) return;
    this.timer = setTimeout(() => {
      void this.sweep()
        .catch((error: unknown) => log.error(`cold storage sweep failed: ${(error as Error).message}`))
        .finally(() => this.scheduleSweep(this.options.checkIntervalMs));
    }, delayMs);
    this.timer.unref();
  }

  /** One sweep over every table (the timer's work; tests may call it). */
  sweep(): Promise<void> {
    return this.serialize(async () => {
      const remote = await this.connectQuietly();
      for (const table of this.options.engine.tableNames()) {
        try {
          await sweepTable(this, table, remote, Date.now());
          if (remote !== undefined) await this.collectUnnamed(remote, table);
        } catch (error) {
          log.error(`cold storage: table ${table}: ${(error as Error).message}; retried at the next sweep`);
          // Another instance took the store root over (or this one could not renew): claim again next sweep.
          if (error instanceof WriterLeaseError) this.forgetRemote();
        }
      }
      if (remote !== undefined) await this.retireDroppedTables(remote);
    });
  }

  /** Retires the objects of dropped tables, one step per sweep and table (cold-dropped-tables.ts). */
  private async retireDroppedTables(remote: RemoteStore): Promise<void> {
    const { files, rootDir } = this.options.engine.options;
    for (const dropped of droppedColdTables(files, rootDir)) {
      try {
        const retired = await remote.manifests.retire({ ...dropped, dir: undefined }, Date.now(), this.options.deleteGraceMs);
        if (retired.deleted > 0) log.info(`cold storage: dropped table ${dropped.table}: ${retired.deleted} objects deleted from the store`);
        if (retired.done) forgetDroppedColdTable(files, rootDir, dropped);
      } catch (error) {
        log.error(`cold storage: dropped table ${dropped.table}: ${(error as Error).message}; retried at the next sweep`);
        if (error instanceof WriterLeaseError) this.forgetRemote();
      }
    }
  }

  /** ALTER TABLE t CONVERT PARTITION TO REMOTE | DROP LOCAL PARTITION, LIST or WHERE: done before it returns. */
  moveNow(table: string, tablePosition: number, action: ColdAction): Promise<void> {
    return this.serialize(async () => {
      if (this.options.connection === null) throw sqlSemanticError('cold storage is not configured (cold.storage.object.store)', action.position);
      const names = await this.options.exclusive(() => {
        const stored = this.options.engine.catalog.resolveName(table);
        const writer = stored === undefined ? undefined : this.options.engine.writer(stored);
        if (writer === undefined || stored === undefined) throw sqlSemanticError(`table does not exist [table=${table}]`, tablePosition);
        if (writer.meta.partitionBy === 'NONE') throw sqlSemanticError('table is not partitioned', action.position);
        const selected = selectInactivePartitions(writer, action, Date.now() * 1000, 'remote');
        if (action.move === 'dropLocal') {
          const missing = selected.find((entry) => entry.cold === undefined);
          if (missing !== undefined) throw sqlSemanticError(`partition has no copy in the object store; CONVERT PARTITION TO REMOTE first [table=${writer.meta.name}, partition=${missing.name}]`, action.position);
        }
        return { stored, names: selected.map((entry) => entry.name) };
      });
      const remote = await this.connect();
      if (action.move === 'toRemote') {
        for (const name of names.names) {
          await convertToParquet(this.context, names.stored, [name]);
          await uploadPartition(this.context, remote, names.stored, name);
        }
      } else {
        for (const name of names.names) await dropLocalPartition(this.context, remote, names.stored, name);
      }
      await this.reconcile(remote, names.stored);
    });
  }

  /** Aligns a table's manifest with its _txn; remembers invalidated live copies for the settle time. */
  async reconcile(remote: RemoteStore, table: string): Promise<void> {
    const state = await this.options.exclusive(() => {
      const writer = this.options.engine.writer(table);
      return writer === undefined ? undefined : { ref: refOf(writer), txn: writer.txn };
    });
    if (state === undefined) return;
    const now = Date.now();
    const invalidated = await remote.manifests.reconcile(state.ref, state.txn, now, this.options.deleteGraceMs);
    for (const partition of invalidated) this.invalidatedAtMs.set(`${table}/${partition}`, now);
  }

  /** Deletes the table's data objects no manifest names (left by a crash mid-upload), past the grace period. */
  private async collectUnnamed(remote: RemoteStore, table: string): Promise<void> {
    const ref = await this.options.exclusive(() => {
      const writer = this.options.engine.writer(table);
      // A table that never had a manifest has nothing in the store: no listing for it.
      return writer === undefined || !hadColdManifest(this.context.files, writer.dir) ? undefined : refOf(writer);
    });
    if (ref === undefined) return;
    const collected = await remote.manifests.collectUnnamed(ref, Date.now(), this.options.deleteGraceMs);
    if (collected > 0) log.info(`cold storage: table ${table}: ${collected} objects no manifest named deleted from the store`);
  }

  get settleMs(): number {
    return this.options.reuploadSettleMs;
  }

  /**
   * Stops the sweep and refuses further _txn steps at once, without waiting for an upload in flight (every step
   * is crash-safe, so an interrupted move is finished or rolled back by the next start); the lease is released
   * so a successor need not wait, given at most CLOSE_RELEASE_WAIT_MS.
   */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    const release = this.remote?.lease.release().catch(() => undefined);
    await Promise.race([release, sleep(CLOSE_RELEASE_WAIT_MS)]);
    void this.store?.close().catch(() => undefined);
  }

  private forgetRemote(): void {
    const lost = this.remote;
    this.remote = undefined;
    void lost?.lease.release().catch(() => undefined);
  }

  private serialize<T>(work: () => Promise<T>): Promise<T> {
    const run = this.chain.then(work, work);
    this.chain = run.catch(() => undefined);
    return run;
  }

  private async connectQuietly(): Promise<RemoteStore | undefined> {
    if (this.options.connection === null || this.closed) return undefined;
    try {
      return await this.connect();
    } catch (error) {
      log.error(`cold storage: store not available, store-bound stages wait: ${(error as Error).message}`);
      return undefined;
    }
  }

  private connect(): Promise<RemoteStore> {
    if (this.remote !== undefined) return Promise.resolve(this.remote);
    const connection = this.options.connection;
    if (connection === null) return Promise.reject(new SvcError('SVC_CONFIG', 'cold storage is not configured (cold.storage.object.store)', 400));
    this.connecting ??= this.openRemote(connection).finally(() => { this.connecting = undefined; });
    return this.connecting;
  }

  private async openRemote(connection: string): Promise<RemoteStore> {
    this.store ??= await openObjectStore(connection);
    const lease = await claimWriter(this.store, '', this.instanceId(), {
      ...(this.options.leaseMs === undefined ? {} : { leaseMs: this.options.leaseMs }),
      ...(this.options.settleMs === undefined ? {} : { settleMs: this.options.settleMs }),
    });
    log.info(`cold storage: managing ${this.store.description} as generation ${lease.generation} (${lease.claimMode} claim)`);
    this.remote = { store: this.store, lease, manifests: new ColdManifests(this.store, lease, this.options.engine.options.files) };
    return this.remote;
  }

  /** Stable per server root, so a restart after kill -9 takes the lease over without waiting it out. */
  private instanceId(): string {
    const files = this.options.engine.options.files;
    const path = join(this.options.engine.options.rootDir, INSTANCE_ID_FILE);
    if (files.exists(path)) {
      const text = files.readFile(path).toString('utf8').trim();
      if (text !== '') return text;
    }
    const id = `svc-${randomBytes(8).toString('hex')}`;
    files.writeFileAtomic(path, Buffer.from(id), true);
    return id;
  }
}
