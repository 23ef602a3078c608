// Primary only: the single writer of one table. Appends row chunks (WAL first, then column files, then an
// atomically replaced _txn), merges out-of-order rows into new partition versions, rewrites partitions.
// Invariant: nothing a reader can see changes until _txn is replaced; a failed statement leaves _txn as it was.
// A commit across tables (group-commit.ts) splits insert in two: appendGroupRecord, then applyGroupRecord once
// the group committed; a committed record that failed to apply is pending and is applied before any other change.
import { join } from 'node:path';
import { removeTreeQuietly, type FilesFacade } from '../core/files.js';
import { assert } from '../core/assert.js';
import { coldPartitionWriteError } from '../core/errors.js';
import { decodeTableMeta, encodeTableMeta, type ColumnMeta, type TableMeta } from './table-meta.js';
import { decodeTxn, emptyTxn, encodeTxn, partitionDirName, rowsWrittenToFiles, type PartitionEntry, type TxnState } from './txn-file.js';
import { gatherChunk, sliceChunk, type ColumnData, type RowChunk, type VarColumnData } from './row-chunk.js';
import { appendColumn, firstRowAtOrAfter, readPartitionRows, type WriteSession } from './column-files.js';
import { partitionMergeRuns, writeMergeInMemory, writeMergeRuns } from './partition-merge.js';
import { SymbolDictionaryWriter } from './symbol-dictionary.js';
import { WalWriter, type CommitMode } from './wal/wal-writer.js';
import { gatherKeys, partitionSpanOf, isAscending, stableSortPermutation, timestampKeysOf, timestampsOf, type TimestampKeys } from './partition-layout.js';
import { removeUnreferencedEntries, schedulePartitionRemoval } from './partition-cleanup.js';
import { dedupRows } from './dedup.js';
import { adoptPartitionFiles, type AdoptedPartition } from './partition-adoption.js';
import { symbolKeysOf } from './symbol-keys.js';
import { assertIncomingChunk, ownIncomingChunk, symbolIdsToKeys, type IncomingChunk, type SymbolIdsColumnData } from './symbol-ids.js';
import { readPartitionEntry } from './read-partition.js';
import type { ParquetPartitionEncoder } from './parquet/parquet-partition-encoder-contract.js';
import { parquetPartitionPath } from './parquet/parquet-partition-reader.js';
import type { TurnMemory } from '../core/turn-memory.js';

export interface TableWriterOptions {
  readonly files: FilesFacade;
  readonly commitMode: CommitMode;
  readonly walSegmentBytesMax: number;
  /** Where a commit's per-row working arrays come from (order keys, SYMBOL keys, permutations, sorted rows); shared by the engine's writers. */
  readonly memory: TurnMemory;
}

/** A table's WAL record of a commit across tables, written and not yet applied. */
export interface GroupRecord {
  readonly groupId: number;
  readonly seq: number;
  readonly chunk: IncomingChunk;
  /** End of the WAL segment before the record, to cut it off when the group does not commit. */
  readonly walMark: number;
  readonly walBytes: number;
}

export interface CommitResult {
  readonly txn: number;
  readonly rowCount: number;
  readonly rowsWritten: number;
  /** Rows landed before a partition's newest row: a merged new version (unsorted rows appended are not this). */
  readonly outOfOrder: boolean;
  /** Rows written into column files (rowsWrittenToFiles); over rowsWritten, the commit's write amplification. */
  readonly rowsPhysical: number;
  readonly walBytes: number;
}

export class TableWriter {
  private symbols: (SymbolDictionaryWriter | undefined)[] = [];
  private readonly wal: WalWriter;
  /** A committed group record whose apply failed: applied before anything else changes this table. */
  private pending: GroupRecord | undefined;

  private constructor(readonly dir: string, private metaValue: TableMeta, private txnValue: TxnState, private readonly options: TableWriterOptions) {
    this.wal = new WalWriter(options.files, dir, options.commitMode, options.walSegmentBytesMax);
    this.openSymbols();
  }

  static create(dir: string, meta: TableMeta, options: TableWriterOptions): TableWriter {
    const files = options.files;
    files.mkdirs(dir);
    const durable = options.commitMode === 'sync';
    files.writeFileAtomic(join(dir, '_meta'), encodeTableMeta(meta), durable);
    const txn = { ...emptyTxn(meta.tableId, meta.columns.length), structureVersion: meta.structureVersion };
    files.writeFileAtomic(join(dir, '_txn'), encodeTxn(txn), durable);
    return new TableWriter(dir, meta, txn, options);
  }

  /** Opens a table from disk: drops leftovers of interrupted commits; WAL replay is the caller's next step. */
  static open(dir: string, options: TableWriterOptions): TableWriter {
    const files = options.files;
    const meta = decodeTableMeta(files.readFile(join(dir, '_meta')), dir);
    const txn = decodeTxn(files.readFile(join(dir, '_txn')), dir);
    removeUnreferencedEntries(files, dir, txn);
    return new TableWriter(dir, meta, txn, options);
  }

  get meta(): TableMeta {
    return this.metaValue;
  }

  get txn(): TxnState {
    return this.txnValue;
  }

  /**
   * Appends rows (SYMBOL columns as text records). The WAL record is durable before anything else changes.
   * `fromDurableSource`: nobody is answered before _txn is published (an import's staging segment, an ILP
   * request waiting for its 204), so the WAL record, a second full copy of the rows, is skipped: a crash before
   * the publish loses only unacknowledged rows, and column tails past _txn are cut at the next start.
   */
  insert(chunk: IncomingChunk, options: { readonly fromDurableSource?: boolean } = {}): CommitResult {
    this.settlePending();
    assertIncomingChunk(chunk, 'insert');
    assert(chunk.columns.length === this.metaValue.columns.length, 'insert chunk has one column per table column');
    if (chunk.rowCount === 0) return { txn: this.txnValue.txn, rowCount: this.txnValue.rowCount, rowsWritten: 0, outOfOrder: false, rowsPhysical: 0, walBytes: 0 };
    const walFree = options.fromDurableSource === true;
    const seq = walFree ? this.txnValue.walSeq : this.txnValue.walSeq + 1;
    const walMark = this.wal.mark();
    let walBytes = 0;
    let placed: Pick<CommitResult, 'outOfOrder' | 'rowsPhysical'>;
    try {
      // The append is inside the try: a record written but not fsynced must be cut off too, or the next
      // start would replay a statement whose client was told it failed.
      if (!walFree) walBytes = this.wal.append(seq, chunk);
      placed = this.apply(chunk, seq);
    } catch (error) {
      this.rollback(walMark);
      throw error;
    }
    this.wal.afterCommit();
    return { txn: this.txnValue.txn, rowCount: this.txnValue.rowCount, rowsWritten: chunk.rowCount, ...placed, walBytes };
  }

  /**
   * Phase one of a commit across tables: appends this table's record of group `groupId` to the WAL (durable per
   * commit mode) and changes nothing else. At the next start the record counts only if the group committed.
   */
  appendGroupRecord(chunk: IncomingChunk, groupId: number): GroupRecord {
    this.settlePending();
    assertIncomingChunk(chunk, 'group record');
    assert(chunk.columns.length === this.metaValue.columns.length && chunk.rowCount > 0, 'a group record has rows and one column per table column');
    const seq = this.txnValue.walSeq + 1;
    const walMark = this.wal.mark();
    let walBytes: number;
    try {
      walBytes = this.wal.append(seq, chunk, groupId);
    } catch (error) {
      this.undoWalQuietly(walMark);
      throw error;
    }
    return { groupId, seq, chunk, walMark, walBytes };
  }

  /** The group did not commit: cuts the record off the WAL (a record left behind is never replayed either). */
  discardGroupRecord(record: GroupRecord): void {
    assert(this.pending === undefined && record.seq === this.txnValue.walSeq + 1, 'a discarded group record is the last one written');
    this.undoWalQuietly(record.walMark);
  }

  /**
   * Phase two, once the group committed: column files and _txn, as insert does. On failure the record stays
   * pending: this writer applies it before any other change, and a restart replays it.
   */
  applyGroupRecord(record: GroupRecord): CommitResult {
    assert(this.pending === undefined && record.seq === this.txnValue.walSeq + 1, 'a group record is applied right after it was written');
    this.pending = record;
    const result = this.settlePending();
    assert(result !== undefined, 'a settled group record has a result');
    return result;
  }

  /** Group id of a committed record not yet applied, if any. */
  get pendingGroupId(): number | undefined {
    return this.pending?.groupId;
  }

  /** Applies the pending group record, if any; throws (and keeps it pending) when that fails again. */
  settlePending(): CommitResult | undefined {
    const record = this.pending;
    if (record === undefined) return undefined;
    let placed: Pick<CommitResult, 'outOfOrder' | 'rowsPhysical'>;
    try {
      placed = this.apply(record.chunk, record.seq);
    } catch (error) {
      this.rollbackSymbols();
      // Pending past the caller's turn: rows of its own, not views of memory the caller reuses (ILP's reads).
      this.pending = { ...record, chunk: ownIncomingChunk(record.chunk) };
      throw error;
    }
    this.pending = undefined;
    assert(this.txnValue.walSeq === record.seq, 'an applied group record is in _txn');
    this.wal.afterCommit();
    return { txn: this.txnValue.txn, rowCount: this.txnValue.rowCount, rowsWritten: record.chunk.rowCount, ...placed, walBytes: record.walBytes };
  }

  private undoWalQuietly(walMark: number): void {
    try {
      this.wal.undo(walMark);
    } catch {
      // The record stays in the WAL with the sequence number the next insert reuses; replay keeps only the
      // last record of a sequence number, so the failed one is never applied.
    }
  }

  /** Undoes a failed insert: WAL tail and unflushed symbols. Column bytes past the committed rows are ignored by readers and overwritten by the next append. */
  private rollback(walMark: number): void {
    this.undoWalQuietly(walMark);
    this.rollbackSymbols();
  }

  /** Re-applies a WAL record found newer than _txn at start-up. */
  replay(seq: number, chunk: IncomingChunk): void {
    assert(seq > this.txnValue.walSeq, 'replayed records are newer than _txn');
    this.apply(chunk, seq);
  }

  /**
   * Takes partitions staged elsewhere (an import's) as new partitions of this table, and inserts `rows` as
   * insert() would, all in one commit: the adopted partitions' column files are moved, not copied. Each is in
   * timestamp order, not empty, and has no partition of its name in the table or among `rows`. A failure
   * removes what was moved in and leaves _txn as it was. No WAL record: the caller's rows are on disk already.
   */
  adoptPartitions(staged: readonly AdoptedPartition[], rows?: RowChunk): CommitResult {
    assert(this.pending === undefined, 'Engine.writer settles a pending group record before the caller reads the partitions');
    const names = new Set(this.txnValue.partitions.map((entry) => entry.name));
    assert(staged.every((partition) => partition.rowCount > 0 && !names.has(partition.name)), 'adopted partitions are new and not empty');
    const files = this.options.files;
    const session = this.writeSession();
    const nextTxn = this.txnValue.txn + 1;
    const created: string[] = [];
    const superseded: PartitionEntry[] = [];
    const before = this.txnValue.partitions;
    let outOfOrder = false;
    try {
      const entries = staged.map((partition): PartitionEntry => {
        const version = files.exists(join(this.dir, partition.name)) ? nextTxn : 0;
        const dir = join(this.dir, partitionDirName({ name: partition.name, version }));
        files.removeTree(dir);
        created.push(dir);
        adoptPartitionFiles(session, dir, this.metaValue.columns, partition, (k, text) => this.symbolKeys(k, text));
        return { name: partition.name, version, rowCount: partition.rowCount, minTimestamp: partition.minTimestamp, maxTimestamp: partition.maxTimestamp };
      });
      let partitions = this.txnValue.partitions;
      if (rows !== undefined && rows.rowCount > 0) {
        const placed = this.options.memory.scope(() => this.placeRows(rows, nextTxn, superseded));
        partitions = placed.partitions;
        outOfOrder = placed.outOfOrder;
        assert(partitions.every((entry) => !entries.some((adopted) => adopted.name === entry.name)), 'inserted rows stay out of adopted partitions');
      }
      for (const dictionary of this.symbols) dictionary?.flush(session.durable);
      this.publishPartitions([...partitions, ...entries].sort((a, b) => a.minTimestamp - b.minTimestamp), nextTxn, this.txnValue.walSeq, superseded);
    } catch (error) {
      this.rollbackSymbols();
      // Not referenced by _txn: a directory the disk refuses to remove now goes at the next start.
      for (const dir of created) removeTreeQuietly(files, dir);
      throw error;
    }
    const rowsWritten = staged.reduce((sum, partition) => sum + partition.rowCount, rows?.rowCount ?? 0);
    return { txn: this.txnValue.txn, rowCount: this.txnValue.rowCount, rowsWritten, outOfOrder, rowsPhysical: rowsWrittenToFiles(before, this.txnValue.partitions), walBytes: 0 };
  }

  /** Removes every row; old partition directories are deleted once readers had time to finish. */
  truncate(): void {
    this.settlePending();
    const old = this.txnValue.partitions;
    this.publish({ ...this.txnValue, txn: this.txnValue.txn + 1, rowCount: 0, partitions: [] });
    for (const entry of old) schedulePartitionRemoval(this.options.files, join(this.dir, partitionDirName(entry)));
    this.wal.discardAll();
  }

  /**
   * Replaces the table structure (ALTER TABLE); column data files are keyed by fileStem and stay valid.
   * `newSymbolCounts` gives the dictionary sizes of SYMBOL stems written before the change (ALTER COLUMN TYPE).
   */
  replaceMeta(meta: TableMeta, newSymbolCounts?: ReadonlyMap<string, number>): void {
    this.settlePending();
    assert(meta.structureVersion === this.metaValue.structureVersion + 1, 'structure version grows by one');
    const previous = this.metaValue;
    const metaPath = join(this.dir, '_meta');
    this.options.files.writeFileAtomic(metaPath, encodeTableMeta(meta), this.options.commitMode === 'sync');
    const symbolCounts = meta.columns.map((column) => {
      const before = previous.columns.findIndex((old) => old.fileStem === column.fileStem);
      return before >= 0 ? (this.txnValue.symbolCounts[before] ?? 0) : (newSymbolCounts?.get(column.fileStem) ?? 0);
    });
    try {
      this.publish({ ...this.txnValue, txn: this.txnValue.txn + 1, structureVersion: meta.structureVersion, symbolCounts });
    } catch (error) {
      // _meta ahead of _txn would make every reader wait for a structure version that never comes.
      this.restoreFile(metaPath, encodeTableMeta(previous));
      throw error;
    }
    this.metaValue = meta;
    this.openSymbols();
  }

  /** Reads a committed partition (all current columns) into memory, SYMBOL columns as int32 keys. */
  readPartition(entry: PartitionEntry): RowChunk {
    if (entry.cold?.local === false) throw coldPartitionWriteError(this.metaValue.name, entry.name);
    return readPartitionEntry(this.options.files, join(this.dir, partitionDirName(entry)), entry, this.metaValue.columns);
  }

  /**
   * CONVERT PARTITION: each named partition becomes a new version `<name>.<txn>` holding the same rows as one
   * Parquet file (`toParquet`) or as native column files, all swapped in by one _txn. The new files are written
   * and fsynced before _txn names them, so a crash leaves either the old or the new state; the old versions are
   * deleted once readers had time to finish. Partitions already in the asked format are left alone.
   */
  convertPartitions(names: readonly string[], toParquet: boolean, encode: ParquetPartitionEncoder): number {
    assert(this.pending === undefined, 'Engine.writer settles a pending group record before a partition conversion');
    const files = this.options.files;
    const nextTxn = this.txnValue.txn + 1;
    const wanted = new Set(names);
    const replaced: PartitionEntry[] = [];
    const created: string[] = [];
    try {
      const partitions = this.txnValue.partitions.map((entry) => {
        if (!wanted.has(entry.name) || (entry.parquetBytes !== undefined) === toParquet) return entry;
        const rows = this.readPartition(entry);
        const dir = this.emptyPartitionDir(entry.name, nextTxn);
        created.push(dir);
        replaced.push(entry);
        const converted: PartitionEntry = { name: entry.name, version: nextTxn, rowCount: entry.rowCount, minTimestamp: entry.minTimestamp, maxTimestamp: entry.maxTimestamp };
        if (!toParquet) {
          this.writeColumns(dir, rows, 0, true);
          return converted;
        }
        const bytes = encode(this.metaValue.columns, rows);
        const fd = files.openWrite(parquetPartitionPath(dir));
        try {
          files.write(fd, bytes, 0);
          files.fsync(fd);
        } finally {
          files.close(fd);
        }
        return { ...converted, parquetBytes: bytes.length };
      });
      if (replaced.length === 0) return 0;
      for (const dir of created) files.fsyncDir(dir);
      files.fsyncDir(this.dir);
      this.publish({ ...this.txnValue, txn: nextTxn, partitions });
    } catch (error) {
      // Not referenced by _txn: a directory the disk refuses to remove now goes at the next start.
      for (const dir of created) removeTreeQuietly(files, dir);
      throw error;
    }
    for (const entry of replaced) schedulePartitionRemoval(files, join(this.dir, partitionDirName(entry)));
    return replaced.length;
  }

  /**
   * Publishes new entries for partitions of the same rows (cold-storage moves: a copy's key, a footer-only
   * version), in one _txn. A replaced entry of another version has its directory deleted after the grace period.
   */
  replacePartitionEntries(changes: ReadonlyMap<string, PartitionEntry>): void {
    assert(this.pending === undefined, 'Engine.writer settles a pending group record before partition entries change');
    const superseded: PartitionEntry[] = [];
    const partitions = this.txnValue.partitions.map((entry) => {
      const next = changes.get(entry.name);
      if (next === undefined) return entry;
      assert(next.rowCount === entry.rowCount && next.minTimestamp === entry.minTimestamp && next.maxTimestamp === entry.maxTimestamp, 'a replaced partition entry keeps its rows');
      if (next.version !== entry.version) superseded.push(entry);
      return next;
    });
    this.publish({ ...this.txnValue, txn: this.txnValue.txn + 1, partitions });
    for (const entry of superseded) schedulePartitionRemoval(this.options.files, join(this.dir, partitionDirName(entry)));
  }

  /** Text of a symbol key of column `columnIndex`. */
  symbolText(columnIndex: number, key: number): string | null {
    return key < 0 ? null : (this.symbols[columnIndex]?.valueOf(key) ?? null);
  }

  /**
   * Replaces whole partitions with new contents (UPDATE, DROP PARTITION). A chunk of zero rows removes the
   * partition. Chunks hold SYMBOL columns as text records; rows must keep the partition's timestamp order.
   * Answers the rows written into column files (CommitResult.rowsPhysical).
   */
  rewritePartitions(replacements: ReadonlyMap<string, RowChunk>): number {
    assert(this.pending === undefined, 'Engine.writer settles a pending group record before the caller reads the partitions');
    const nextTxn = this.txnValue.txn + 1;
    const removed: PartitionEntry[] = [];
    const partitions: PartitionEntry[] = [];
    for (const entry of this.txnValue.partitions) {
      const replacement = replacements.get(entry.name);
      if (replacement === undefined) {
        partitions.push(entry);
        continue;
      }
      removed.push(entry);
      if (replacement.rowCount === 0) continue;
      partitions.push(this.options.memory.scope(() => this.writeNewPartition(entry.name, this.resolveSymbols(replacement), nextTxn)));
    }
    const before = this.txnValue.partitions;
    this.publishPartitions(partitions, nextTxn, this.txnValue.walSeq, removed);
    return rowsWrittenToFiles(before, partitions);
  }

  close(): void {
    this.wal.close();
  }

  private apply(chunk: IncomingChunk, seq: number): Pick<CommitResult, 'outOfOrder' | 'rowsPhysical'> {
    const nextTxn = this.txnValue.txn + 1;
    const superseded: PartitionEntry[] = [];
    const before = this.txnValue.partitions;
    const placed = this.options.memory.scope(() => this.placeRows(chunk, nextTxn, superseded));
    this.publishPartitions(placed.partitions, nextTxn, seq, superseded);
    return { outOfOrder: placed.outOfOrder, rowsPhysical: rowsWrittenToFiles(before, placed.partitions) };
  }

  /**
   * Writes rows into their partitions (merged new versions where they overlap); returns the partition list after
   * them. Callers run it in a scope of the turn memory, which frees its working arrays once they are written.
   */
  private placeRows(chunk: IncomingChunk, nextTxn: number, superseded: PartitionEntry[]): { partitions: PartitionEntry[]; outOfOrder: boolean } {
    const { memory } = this.options;
    const resolved = this.resolveSymbols(chunk);
    const tsIndex = this.metaValue.timestampIndex;
    if (tsIndex < 0) return { partitions: [this.appendRows('default', resolved, undefined, nextTxn, superseded)], outOfOrder: false };
    let keys = this.timestampKeys(resolved);
    let ordered = resolved;
    if (!isAscending(keys)) {
      const order = stableSortPermutation(keys, memory);
      ordered = gatherChunk(resolved, order, 0, order.length, memory);
      keys = gatherKeys(keys, order, memory);
    }
    const timestamps = keys instanceof Float64Array ? keys : timestampsOf(ordered.columns[tsIndex], ordered.rowCount, true);
    return this.applyOrdered(ordered, timestamps, nextTxn, superseded);
  }

  /** Whether the designated timestamp holds nanoseconds (partition metadata then holds their µs floors). */
  private get nanosTimestamp(): boolean {
    return this.metaValue.columns[this.metaValue.timestampIndex]?.type === 'TIMESTAMP_NS';
  }

  /** The designated timestamps rows are ordered by (exact ns for TIMESTAMP_NS); µs keys in the turn memory. */
  private timestampKeys(rows: RowChunk): TimestampKeys {
    return timestampKeysOf(rows.columns[this.metaValue.timestampIndex], rows.rowCount, this.nanosTimestamp, this.options.memory);
  }

  /** The designated timestamps as µs (the floor of ns values): what partition spans and metadata use. */
  private timestampMicros(rows: RowChunk): Float64Array {
    return timestampsOf(rows.columns[this.metaValue.timestampIndex], rows.rowCount, this.nanosTimestamp);
  }

  private publishPartitions(partitions: PartitionEntry[], nextTxn: number, walSeq: number, superseded: readonly PartitionEntry[]): void {
    const rowCount = partitions.reduce((sum, entry) => sum + entry.rowCount, 0);
    this.publish({ ...this.txnValue, txn: nextTxn, walSeq, rowCount, partitions, symbolCounts: this.currentSymbolCounts() });
    for (const entry of superseded) schedulePartitionRemoval(this.options.files, join(this.dir, partitionDirName(entry)));
  }

  private applyOrdered(chunk: RowChunk, timestamps: Float64Array, nextTxn: number, superseded: PartitionEntry[]): { partitions: PartitionEntry[]; outOfOrder: boolean } {
    const unit = this.metaValue.partitionBy;
    const byName = new Map(this.txnValue.partitions.map((entry) => [entry.name, entry]));
    let outOfOrder = false;
    let from = 0;
    while (from < chunk.rowCount) {
      const span = partitionSpanOf(timestamps[from], unit);
      let to = from + 1;
      while (to < chunk.rowCount && timestamps[to] < span.end) to++;
      const existing = byName.get(span.name);
      if (existing !== undefined && timestamps[from] < existing.maxTimestamp) outOfOrder = true;
      const entry = this.appendRows(span.name, sliceChunk(chunk, from, to), timestamps.subarray(from, to), nextTxn, superseded);
      byName.set(span.name, entry);
      from = to;
    }
    const partitions = [...byName.values()].sort((a, b) => a.minTimestamp - b.minTimestamp);
    return { partitions, outOfOrder };
  }

  /** Adds ordered rows to one partition: in place when they all come after its last row, else as a merged new version. */
  private appendRows(name: string, rows: RowChunk, timestamps: Float64Array | undefined, nextTxn: number, superseded: PartitionEntry[]): PartitionEntry {
    const existing = this.txnValue.partitions.find((entry) => entry.name === name);
    const minTs = timestamps === undefined ? 0 : timestamps[0];
    const maxTs = timestamps === undefined ? 0 : timestamps[timestamps.length - 1];
    const dedupKeys = this.dedupColumns();
    if (timestamps !== undefined && dedupKeys.length > 0) {
      // Rows of one batch collapse first; rows at the partition's last timestamp must merge to meet older twins.
      rows = dedupRows(rows, timestamps, dedupKeys);
      if (rows.rowCount !== timestamps.length) timestamps = this.timestampMicros(rows);
    }
    if (existing === undefined) return this.writeNewPartition(name, rows, nextTxn, minTs, maxTs);
    if (existing.cold?.local === false) throw coldPartitionWriteError(this.metaValue.name, name);
    // Rows never go into a Parquet file in place: the partition is merged into a new native version instead.
    const appendable = existing.parquetBytes === undefined;
    // Metadata of a TIMESTAMP_NS table holds µs floors: rows within the last row's µs may still be older in ns.
    const sameMicroAppendable = dedupKeys.length === 0 && !this.nanosTimestamp;
    if (appendable && (timestamps === undefined || minTs > existing.maxTimestamp || (minTs === existing.maxTimestamp && sameMicroAppendable))) {
      this.writeColumns(join(this.dir, partitionDirName(existing)), rows, existing.rowCount);
      return { ...existing, rowCount: existing.rowCount + rows.rowCount, maxTimestamp: Math.max(existing.maxTimestamp, maxTs), minTimestamp: existing.rowCount === 0 ? minTs : existing.minTimestamp };
    }
    assert(timestamps !== undefined, 'only partitions of a table with a designated timestamp are merged (PARTITION BY NONE is never converted)');
    superseded.push(existing);
    return this.mergeIntoNewVersion(existing, rows, timestamps, nextTxn, dedupKeys);
  }

  /**
   * An out-of-order merge: the new version of the partition keeps the rows before the first new timestamp as
   * they are (copied file to file) and rewrites only the rows from there on, merged with the new ones, so the
   * cost follows how far back the new rows reach, not how large the partition is.
   */
  private mergeIntoNewVersion(existing: PartitionEntry, rows: RowChunk, timestamps: Float64Array, nextTxn: number, dedupKeys: readonly number[]): PartitionEntry {
    const { timestampIndex: tsIndex, columns } = this.metaValue;
    const oldDir = join(this.dir, partitionDirName(existing));
    // A Parquet partition has no column files to copy from: all of it is read and rewritten as native columns.
    const parquet = existing.parquetBytes !== undefined;
    const kept = parquet ? 0 : firstRowAtOrAfter(this.options.files, oldDir, columns[tsIndex], existing.rowCount, timestamps[0]);
    // µs timestamps are their own order keys: those placeRows computed for these rows serve again.
    const rowKeys = this.nanosTimestamp ? this.timestampKeys(rows) : timestamps;
    // Without deduplication a merge of a few long runs copies the committed rows file to file, never reading them.
    const runs = parquet || dedupKeys.length > 0 ? undefined : partitionMergeRuns(this.options.files, oldDir, columns[tsIndex], kept, existing.rowCount, rowKeys, this.options.memory);
    const dir = this.emptyPartitionDir(existing.name, nextTxn);
    const written = runs !== undefined ? writeMergeRuns(this.writeSession(), oldDir, dir, columns, kept, rows, runs)
      : writeMergeInMemory(this.writeSession(), oldDir, dir, columns, kept, parquet ? this.readPartition(existing) : readPartitionRows(this.options.files, oldDir, columns, kept, existing.rowCount, this.options.memory), rows, (chunk) => this.timestampKeys(chunk), dedupKeys);
    return {
      name: existing.name, version: nextTxn, rowCount: kept + written,
      minTimestamp: Math.min(existing.minTimestamp, timestamps[0]),
      maxTimestamp: Math.max(existing.maxTimestamp, timestamps[timestamps.length - 1]),
    };
  }

  /** Column indexes of the DEDUP UPSERT KEYS; empty when deduplication is off. */
  private dedupColumns(): number[] {
    const meta = this.metaValue;
    return meta.dedupKeys.map((name) => meta.columns.findIndex((column) => column.name === name)).filter((index) => index >= 0);
  }

  private writeNewPartition(name: string, rows: RowChunk, nextTxn: number, minTs?: number, maxTs?: number): PartitionEntry {
    const version = this.options.files.exists(join(this.dir, name)) ? nextTxn : 0;
    const dir = this.emptyPartitionDir(name, version);
    this.writeColumns(dir, rows, 0);
    if (minTs !== undefined || this.metaValue.timestampIndex < 0) return { name, version, rowCount: rows.rowCount, minTimestamp: minTs ?? 0, maxTimestamp: maxTs ?? 0 };
    const timestamps = this.timestampMicros(rows);
    return { name, version, rowCount: rows.rowCount, minTimestamp: timestamps[0], maxTimestamp: timestamps[timestamps.length - 1] };
  }

  /** The directory of a new partition version, emptied of whatever an interrupted commit left there. */
  private emptyPartitionDir(name: string, version: number): string {
    const dir = join(this.dir, partitionDirName({ name, version }));
    this.options.files.removeTree(dir);
    this.options.files.mkdirs(dir);
    return dir;
  }

  /** Column writes are fsynced under cairo.commit.mode=sync, or when the caller needs them durable anyway. */
  private writeSession(durable = false): WriteSession {
    return { files: this.options.files, durable: durable || this.options.commitMode === 'sync' };
  }

  private writeColumns(partitionDir: string, rows: RowChunk, existingRows: number, durable = false): void {
    const session = this.writeSession(durable);
    this.metaValue.columns.forEach((column, k) => appendColumn(session, partitionDir, column, rows.columns[k], existingRows));
  }

  /** SYMBOL columns arrive as text records or dictionary ids; the table dictionary turns them into int32 keys. */
  private resolveSymbols(chunk: IncomingChunk): RowChunk {
    const columns = chunk.columns.map((column, k): ColumnData => {
      if (column.kind !== 'symbolIds' && (this.symbols[k] === undefined || column.kind === 'fixed')) return column;
      return { kind: 'fixed', width: 4, bytes: this.symbolKeys(k, column) };
    });
    for (const dictionary of this.symbols) dictionary?.flush(this.options.commitMode === 'sync');
    return { rowCount: chunk.rowCount, columns };
  }

  /** Keys of SYMBOL column k, adding new values to its dictionary (flushed by the caller); ids (a commit's rows) get keys in the turn memory. */
  private symbolKeys(k: number, values: VarColumnData | SymbolIdsColumnData): Buffer {
    const dictionary = this.symbols[k];
    assert(dictionary !== undefined, 'symbol keys are asked for SYMBOL columns only');
    const keyOf = (value: string): number => dictionary.keyOf(value);
    return values.kind === 'symbolIds' ? symbolIdsToKeys(values, keyOf, this.options.memory.int32(values.ids.length >> 2)) : symbolKeysOf(values, keyOf);
  }

  private currentSymbolCounts(): number[] {
    return this.metaValue.columns.map((_, k) => this.symbols[k]?.count ?? 0);
  }

  private rollbackSymbols(): void {
    for (const dictionary of this.symbols) dictionary?.rollback();
  }

  private openSymbols(): void {
    this.symbols = this.metaValue.columns.map((column, k) =>
      column.type === 'SYMBOL' ? new SymbolDictionaryWriter(this.options.files, this.dir, column.fileStem, this.txnValue.symbolCounts[k] ?? 0) : undefined);
  }

  private publish(state: TxnState): void {
    const path = join(this.dir, '_txn');
    try {
      this.options.files.writeFileAtomic(path, encodeTxn(state), this.options.commitMode === 'sync');
    } catch (error) {
      this.restoreFile(path, encodeTxn(this.txnValue));
      throw error;
    }
    this.txnValue = state;
  }

  /**
   * A replace can fail after its rename (directory fsync), and a failed ALTER leaves its new _meta behind:
   * put the committed bytes back so readers never see a failed change.
   */
  private restoreFile(path: string, committed: Buffer): void {
    try {
      if (!this.options.files.readFile(path).equals(committed)) this.options.files.writeFileAtomic(path, committed, false);
    } catch {
      // The disk refuses even the restore; the next commit replaces the file from the in-memory state again.
    }
  }
}
