// Primary only: opens the root's db/ directory, recovers every table (WAL records newer than _txn are
// replayed, leftovers of interrupted commits removed) and owns one TableWriter per table. A group record (a
// commit across tables, storage/group-commit.ts) is replayed only when the intent file lists its group.
import { join } from 'node:path';
import { moveScheduledRemovals } from '../storage/partition-cleanup.js';
import type { FilesFacade } from '../core/files.js';
import { syncTree } from '../core/files.js';
import type { CommitMode } from '../storage/wal/wal-writer.js';
import type { TableMeta } from '../storage/table-meta.js';
import { TableWriter, type TableWriterOptions } from '../storage/table-writer.js';
import type { ParquetPartitionEncoder } from '../storage/parquet/parquet-partition-encoder-contract.js';
import { readWalRecords } from '../storage/wal/wal-reader.js';
import { Catalog, isTableDirName } from '../storage/catalog.js';
import { forgetMappings } from '../storage/mmap.js';
import { walChannel } from '../core/diagnostics.js';
import { clearGroupIntent, readCommittedGroups, type GroupCommitContext } from '../storage/group-commit.js';
import { hadColdManifest, markDroppedColdTable } from './cold/cold-dropped-tables.js';
import { engineTurnMemory, type TurnMemory } from '../core/turn-memory.js';

export interface EngineOptions {
  readonly rootDir: string;
  readonly files: FilesFacade;
  readonly commitMode: CommitMode;
  readonly walSegmentBytesMax: number;
  readonly uncommittedRowsMax: number;
  readonly o3LagMaxMs: number;
  /** Encodes partitions for CONVERT PARTITION TO PARQUET (output/parquet-partition-encoder.ts, configured by the server). */
  readonly parquetEncoder?: ParquetPartitionEncoder;
  /** cairo.sql.copy.root: where read_parquet() reads (INSERT ... SELECT FROM read_parquet binds in the primary). */
  readonly sqlCopyRoot?: string;
}

export interface ReplayedTable {
  readonly table: string;
  readonly records: number;
  readonly rows: number;
  readonly firstSeq: number;
  readonly lastSeq: number;
}

export interface RecoveryReport {
  readonly tables: number;
  readonly replayedRecords: number;
  /** Tables whose _txn lagged their WAL, with what was replayed: the trace of an unclean shutdown. */
  readonly replayed: readonly ReplayedTable[];
  /** Staging segments of imports that never committed, and dropped tables not yet deleted, removed at start. */
  readonly removedLeftovers: readonly string[];
  /** WAL records of commits across tables that never reached their commit point, left out. */
  readonly uncommittedGroupRecords: number;
}

export class Engine {
  readonly dbDir: string;
  readonly catalog: Catalog;
  private readonly writers = new Map<string, TableWriter>();
  private nextTableId = 1;
  /**
   * Memory for the transient arrays of write turns (staged ILP reads, concatenated groups, the writers' order
   * keys and gathered rows), reused from one turn to the next; every writer of this engine takes from it.
   */
  readonly turnMemory: TurnMemory = engineTurnMemory();

  constructor(readonly options: EngineOptions) {
    this.dbDir = join(options.rootDir, 'db');
    options.files.mkdirs(this.dbDir);
    this.catalog = new Catalog(this.dbDir, options.sqlCopyRoot);
  }

  /** Opens every table, replaying the WAL where _txn lags it. */
  recover(): RecoveryReport {
    let replayedRecords = 0;
    const replayed: ReplayedTable[] = [];
    const removedLeftovers: string[] = [];
    for (const name of this.options.files.list(this.dbDir)) {
      // Dropped tables awaiting deletion and staging segments of imports that never committed.
      if (name.startsWith('.dropped-') || (name === '.staging' && this.options.files.list(join(this.dbDir, name)).length > 0)) removedLeftovers.push(name);
      if (name.startsWith('.dropped-') || name === '.staging') this.options.files.removeTree(join(this.dbDir, name));
    }
    const committedGroups = readCommittedGroups(this.options.files, this.dbDir);
    let uncommittedGroupRecords = 0;
    for (const name of this.catalog.listTableNames()) {
      const writer = TableWriter.open(join(this.dbDir, name), this.writerOptions());
      let records = 0;
      let rows = 0;
      let firstSeq = 0;
      let lastSeq = 0;
      for (const record of readWalRecords(this.options.files, writer.dir)) {
        if (record.seq <= writer.txn.walSeq) continue;
        // The next append reuses the sequence number, and replay keeps only the last record of a number.
        if (record.groupId !== undefined && !committedGroups.has(record.groupId)) {
          uncommittedGroupRecords++;
          continue;
        }
        writer.replay(record.seq, record.chunk);
        if (records === 0) firstSeq = record.seq;
        lastSeq = record.seq;
        records++;
        rows += record.chunk.rowCount;
      }
      if (records > 0) replayed.push({ table: name, records, rows, firstSeq, lastSeq });
      replayedRecords += records;
      this.writers.set(name, writer);
      this.nextTableId = Math.max(this.nextTableId, writer.meta.tableId + 1);
    }
    // Every committed group is applied now, in every table.
    if (committedGroups.size > 0) clearGroupIntent(this.options.files, this.dbDir);
    if (replayedRecords > 0) walChannel.publish({ kind: 'replay', records: replayedRecords });
    return { tables: this.writers.size, replayedRecords, replayed, removedLeftovers, uncommittedGroupRecords };
  }

  /** What a commit across tables needs from the engine. */
  groupCommitContext(): GroupCommitContext {
    return {
      files: this.options.files, dbDir: this.dbDir, durable: this.options.commitMode === 'sync',
      pendingGroupIds: () => [...this.writers.values()].flatMap((writer) => (writer.pendingGroupId === undefined ? [] : [writer.pendingGroupId])),
    };
  }

  writerOptions(): TableWriterOptions {
    return { files: this.options.files, commitMode: this.options.commitMode, walSegmentBytesMax: this.options.walSegmentBytesMax, memory: this.turnMemory };
  }

  /**
   * The writer of a table by stored name, or undefined. A committed group record the writer failed to apply
   * is applied first (or this throws), so callers read and change the table with it in.
   */
  writer(storedName: string): TableWriter | undefined {
    let writer = this.writers.get(storedName);
    if (writer === undefined && this.catalog.resolveName(storedName) === storedName) {
      writer = TableWriter.open(join(this.dbDir, storedName), this.writerOptions());
      this.writers.set(storedName, writer);
    }
    writer?.settlePending();
    return writer;
  }

  allocateTableId(): number {
    return this.nextTableId++;
  }

  createTable(meta: TableMeta): TableWriter {
    const writer = TableWriter.create(join(this.dbDir, meta.name), meta, this.writerOptions());
    this.writers.set(meta.name, writer);
    return writer;
  }

  /**
   * Drops a table: its directory is renamed away at once (invisible to new readers) and deleted after; objects it
   * has in the cold store are retired by the cold-storage manager's sweeps.
   */
  dropTable(storedName: string): void {
    // The table's id names its objects' prefix; a writer is opened for it only when the table has objects.
    const meta = hadColdManifest(this.options.files, join(this.dbDir, storedName)) ? this.writer(storedName)?.meta : undefined;
    if (meta !== undefined) markDroppedColdTable(this.options.files, this.options.rootDir, { table: meta.name, tableId: meta.tableId });
    this.writers.get(storedName)?.close();
    this.writers.delete(storedName);
    const tombstone = join(this.dbDir, `.dropped-${Date.now()}-${storedName}`);
    this.options.files.rename(join(this.dbDir, storedName), tombstone);
    moveScheduledRemovals(this.options.files, join(this.dbDir, storedName), undefined);
    forgetMappings(join(this.dbDir, storedName));
    setTimeout(() => this.options.files.removeTree(tombstone), 10_000).unref();
  }

  renameTable(from: string, to: string): void {
    const writer = this.writer(from);
    writer?.close();
    this.writers.delete(from);
    this.options.files.rename(join(this.dbDir, from), join(this.dbDir, to));
    moveScheduledRemovals(this.options.files, join(this.dbDir, from), join(this.dbDir, to));
    const reopened = TableWriter.open(join(this.dbDir, to), this.writerOptions());
    reopened.replaceMeta({ ...reopened.meta, name: to, structureVersion: reopened.meta.structureVersion + 1 });
    this.writers.set(to, reopened);
  }

  tableNames(): string[] {
    return this.catalog.listTableNames().filter(isTableDirName);
  }

  /** Makes everything committed so far durable, whatever cairo.commit.mode says; returns the files synced. */
  flushToDisk(): number {
    return syncTree(this.dbDir);
  }

  /** Closes every writer (WAL segments included), then flushes db/ to disk; returns the files synced. */
  close(): number {
    for (const writer of this.writers.values()) writer.close();
    this.writers.clear();
    return this.flushToDisk();
  }
}
