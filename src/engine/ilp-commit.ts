// Primary side of ILP ingestion: commits a group of requests that waited for the writer at the same time.
// First every request's structure is settled (tables created, columns added, as QuestDB does even when the
// rows then fail), then each request's rows are laid out in its tables' current columns, then each table gets
// ONE record of every request's rows: one WAL append and one fsync per table for the whole group (a group of
// one table writes its column files and _txn without a WAL record, see skipsWal). A request
// that fails before that (its table changed under it, its staged file is unreadable) commits nothing and does
// not hold the others back. The rows of the group commit as one unit, all tables or none, also across a crash
// (one table: its insert; several: storage/group-commit.ts); a storage failure fails every request of the group.
import type { Engine } from './engine.js';
import type { IlpCommitRequest, IlpCommitResult, IlpTableBatch } from './writer-client.js';
import type { ColumnMeta, TableMeta } from '../storage/table-meta.js';
import type { TableWriter } from '../storage/table-writer.js';
import type { ColumnData } from '../storage/row-chunk.js';
import type { ScratchMemory } from '../core/scratch-memory.js';
import { concatIncomingChunks, type IncomingChunk, type IncomingColumnData } from '../storage/symbol-ids.js';
import { absentIncomingColumn, type TcpRowHold } from './tcp-row-hold.js';
import { readStagedChunks } from '../storage/staged-chunks.js';
import { timestampsOf } from '../storage/partition-layout.js';
import { textCodedColumnFromText } from './encode-batch.js';
import { uniqueStem } from './column-stems.js';
import { partitionUnitOf } from '../types/timestamp.js';
import { isValidTableName } from '../core/table-names.js';
import { SvcError, asStorageError } from '../core/errors.js';
import { commitTableGroup, type GroupPart } from '../storage/group-commit.js';
import { assert } from '../core/assert.js';
import type { CommitResult } from '../storage/table-writer.js';
import { publishCommit } from './commit-events.js';
import { newestTimestamp } from '../storage/txn-file.js';
import { isTextCodedType } from '../types/coded-columns.js';

/** QuestDB's cairo.default.symbol.capacity. */
const DEFAULT_SYMBOL_CAPACITY = 256;

interface PreparedTable {
  readonly writer: TableWriter;
  readonly batch: IlpTableBatch;
  readonly chunk: IncomingChunk;
}

function invalid(message: string): SvcError {
  return new SvcError('SVC_ILP_INVALID', message, 400);
}

function findColumn(meta: TableMeta, name: string): number {
  const lower = name.toLowerCase();
  return meta.columns.findIndex((column) => column.name.toLowerCase() === lower);
}

function newColumn(name: string, type: ColumnMeta['type'], stem: string): ColumnMeta {
  return { name, type, fileStem: stem, indexed: false, symbolCapacity: DEFAULT_SYMBOL_CAPACITY };
}

function createTable(engine: Engine, batch: IlpTableBatch, partitionByText: string): TableWriter {
  const partitionBy = partitionUnitOf(partitionByText);
  if (partitionBy === undefined) throw new SvcError('SVC_CONFIG', `invalid line.default.partition.by [value=${partitionByText}]`, 500);
  if (!isValidTableName(batch.table)) throw invalid(`table: ${batch.table}; invalid table name`);
  const stems = new Set<string>();
  // QuestDB puts the designated timestamp of a table the line protocol creates last.
  const named = batch.timestampColumn === undefined ? batch.columns : [...batch.columns, { name: batch.timestampColumn, type: batch.timestampType ?? 'TIMESTAMP' }];
  const columns = named.map((column) => newColumn(column.name, column.type, uniqueStem(column.name, stems)));
  const timestampIndex = batch.timestampColumn === undefined ? -1 : columns.length - 1;
  const options = engine.options;
  const meta: TableMeta = {
    formatVersion: 1, tableId: engine.allocateTableId(), name: batch.table, columns, timestampIndex,
    partitionBy: timestampIndex < 0 ? 'NONE' : partitionBy, walEnabled: timestampIndex >= 0, structureVersion: 0,
    maxUncommittedRows: options.uncommittedRowsMax, o3MaxLagMs: options.o3LagMaxMs, dedupKeys: [],
  };
  return engine.createTable(meta);
}

/** The table of a batch with every column the batch writes (created or added now if missing). */
function settleStructure(engine: Engine, batch: IlpTableBatch, partitionBy: string): TableWriter {
  const stored = engine.catalog.resolveName(batch.table);
  if (stored === undefined) return createTable(engine, batch, partitionBy);
  const writer = engine.writer(stored);
  if (writer === undefined) throw invalid(`table: ${batch.table}; table does not exist`);
  const meta = writer.meta;
  const designated = meta.columns[meta.timestampIndex];
  if ((batch.timestampColumn === undefined) !== (designated === undefined)
    || (designated !== undefined && designated.name.toLowerCase() !== batch.timestampColumn?.toLowerCase())
    // Values parsed in µs must not land in a ns column created meanwhile by another request, nor the reverse.
    || (designated !== undefined && designated.type !== (batch.timestampType ?? 'TIMESTAMP'))) {
    throw invalid(`table: ${batch.table}; the designated timestamp of the table changed while the request was parsed`);
  }
  const added: ColumnMeta[] = [];
  const stems = new Set(meta.columns.map((column) => column.fileStem.toLowerCase()));
  for (const column of batch.columns) {
    const index = findColumn(meta, column.name);
    const existing = meta.columns[index];
    if (existing === undefined) {
      if (!added.some((other) => other.name.toLowerCase() === column.name.toLowerCase())) {
        added.push(newColumn(column.name, column.type, uniqueStem(`${column.name}.${meta.structureVersion + 1}`, stems)));
      }
    } else if (existing.type !== column.type) {
      throw invalid(`table: ${batch.table}, column: ${column.name}; cast error from protocol type: ${column.type} to column type: ${existing.type}`);
    }
  }
  if (added.length > 0) writer.replaceMeta({ ...meta, columns: [...meta.columns, ...added], structureVersion: meta.structureVersion + 1 });
  return writer;
}

/** The batch's rows with one column per table column, nulls where the request sent nothing. */
function layOut(meta: TableMeta, batch: IlpTableBatch, staged: IncomingChunk): IncomingChunk {
  const rowCount = staged.rowCount;
  const offset = batch.timestampColumn === undefined ? 0 : 1;
  const columns = meta.columns.map((column, k): IncomingColumnData => {
    if (k === meta.timestampIndex) return staged.columns[0];
    const source = batch.columns.findIndex((candidate) => candidate.name.toLowerCase() === column.name.toLowerCase());
    // SYMBOL values travel as dictionary ids until the writer resolves their keys: a column a request left out
    // gets null ids too, so it concatenates with another request's values of the same table as it is.
    if (source < 0) return absentIncomingColumn(column, rowCount);
    const data = staged.columns[source + offset];
    if (!isTextCodedType(column.type)) return data;
    assert(data.kind !== 'symbolIds', 'only SYMBOL columns travel as dictionary ids');
    return textCodedColumnFromText(data, rowCount, column.type);
  });
  return { rowCount, columns };
}

/**
 * Reads a request's rows and settles its structure. The staged file stays: the worker that wrote it reuses it
 * once this request is answered (ilp/staged-file-pool.ts), or deletes it.
 */
function prepareRequest(engine: Engine, request: IlpCommitRequest): { tables: IlpTableBatch[]; writers: TableWriter[]; chunks: IncomingChunk[] } {
  const chunks = readStagedChunks(request.stagedFile, request.tables.map((batch) => batch.chunk), (bytes) => engine.turnMemory.bytes(bytes), request.stagedBytes);
  const writers = request.tables.map((batch) => settleStructure(engine, batch, request.partitionBy));
  return { tables: [...request.tables], writers, chunks };
}

/**
 * Commits a group of requests; each gets its result or its error, in order. The chunks read, and the group's
 * concatenations of them, are views of the engine's turn memory, free again when this returns: nothing keeps
 * them past it (a group record left pending keeps a copy: TableWriter).
 */
export function commitIlpGroup(engine: Engine, requests: readonly IlpCommitRequest[], hold?: GroupHold): (IlpCommitResult | Error)[] {
  return engine.turnMemory.scope(() => commitIlpGroupInScope(engine, requests, hold));
}

/** The TCP hold a group passes through, and whether it may keep rows now (a TCP connection is open). */
export interface GroupHold {
  readonly hold: TcpRowHold;
  readonly mayHold: boolean;
}

function commitIlpGroupInScope(engine: Engine, requests: readonly IlpCommitRequest[], hold: GroupHold | undefined): (IlpCommitResult | Error)[] {
  const outcomes: (IlpCommitResult | Error)[] = requests.map(() => ({ rowsCommitted: 0, tablesCreated: 0 }));
  const namesBefore = new Set(engine.tableNames().map((name) => name.toLowerCase()));
  const prepared: (ReturnType<typeof prepareRequest> | undefined)[] = requests.map((request, k) => {
    try {
      return prepareRequest(engine, request);
    } catch (error) {
      outcomes[k] = failure(error);
      return undefined;
    }
  });
  // Rows are laid out after every request's structure change, so all chunks of a table have the same columns.
  const byWriter = new Map<TableWriter, { requests: number[]; tables: PreparedTable[] }>();
  prepared.forEach((entry, k) => {
    if (entry === undefined) return;
    try {
      const tables = entry.tables.map((batch, t): PreparedTable => {
        const writer = entry.writers[t];
        return { writer, batch, chunk: layOut(writer.meta, batch, entry.chunks[t]) };
      });
      for (const table of tables) {
        const group = byWriter.get(table.writer) ?? { requests: [], tables: [] };
        group.requests.push(k);
        group.tables.push(table);
        byWriter.set(table.writer, group);
      }
    } catch (error) {
      outcomes[k] = failure(error);
    }
  });
  const rows = new Float64Array(requests.length);
  const only = byWriter.size === 1 ? [...byWriter][0] : undefined;
  // Tables that pass through the TCP hold commit the rows it lets go, as one insert each.
  const admitted = hold === undefined ? new Map<TableWriter, IncomingChunk>() : admitToHold(hold, byWriter, requests, engine.turnMemory);
  if (only !== undefined && engine.options.commitMode === 'nosync' && !admitted.has(only[0])) {
    commitEachRequest(only[0], only[1], rows, outcomes, engine.turnMemory);
  } else {
    try {
      commitTables(engine, byWriter, admitted);
      for (const group of byWriter.values()) {
        group.requests.forEach((k, index) => { rows[k] = rows[k] + group.tables[index].chunk.rowCount; });
      }
    } catch (error) {
      for (const group of byWriter.values()) for (const k of group.requests) outcomes[k] = failure(error);
    }
  }
  return outcomes.map((outcome, k) => {
    if (outcome instanceof Error) return outcome;
    const created = requests[k]?.tables.filter((batch) => !namesBefore.has(batch.table.toLowerCase())).length ?? 0;
    return { rowsCommitted: rows[k], tablesCreated: created };
  });
}

/**
 * The rows each table whose group is all TCP units (or which has rows held) commits now, through the hold:
 * a table that also has rows another client waits for commits everything held and incoming.
 */
function admitToHold(
  group: GroupHold, byWriter: ReadonlyMap<TableWriter, { requests: number[]; tables: PreparedTable[] }>, requests: readonly IlpCommitRequest[], memory: ScratchMemory,
): Map<TableWriter, IncomingChunk> {
  const admitted = new Map<TableWriter, IncomingChunk>();
  const nowMs = Date.now();
  group.hold.forgetIdle(nowMs);
  for (const [writer, table] of byWriter) {
    const tcpOnly = table.requests.every((k) => requests[k]?.tcp === true);
    const mayHold = group.mayHold && tcpOnly;
    if (!mayHold && !group.hold.holds(writer)) continue;
    admitted.set(writer, group.hold.admit(writer, table.tables.map((entry) => entry.chunk), mayHold, nowMs, memory));
  }
  return admitted;
}

/**
 * Commits every row the hold keeps for `writers` (all its tables when undefined), one insert per table, in
 * the engine's turn memory. A table whose insert fails loses its held rows (logged by the caller): as with
 * a TCP unit whose commit fails, no client is waiting for them.
 */
export function commitHeldRows(engine: Engine, hold: TcpRowHold, writers: readonly TableWriter[] = hold.heldTables()): Error[] {
  const errors: Error[] = [];
  for (const writer of writers) {
    engine.turnMemory.scope(() => {
      const rows = hold.drain(writer);
      if (rows === undefined || rows.rowCount === 0) return;
      try {
        const result = writer.insert(rows, { fromDurableSource: skipsWal(engine) });
        publishCommit(writer, result);
      } catch (error) {
        errors.push(failure(error));
      }
    });
  }
  return errors;
}

/** One record per table of the group, all of them committing as one unit (the tables are all or none). */
function commitTables(engine: Engine, byWriter: ReadonlyMap<TableWriter, { tables: PreparedTable[] }>, admitted: ReadonlyMap<TableWriter, IncomingChunk>): void {
  const parts = [...byWriter].map(([writer, group]): GroupPart => ({
    writer, chunk: admitted.get(writer) ?? concatIncomingChunks(inTimeOrder(writer, group.tables.map((table) => table.chunk)), engine.turnMemory),
  })).filter((part) => part.chunk.rowCount > 0);
  if (parts.length === 0) return;
  const only = parts[0];
  // One table's _txn replace is atomic by itself; only several tables need the group's commit point.
  const results: CommitResult[] = parts.length === 1 ? [only.writer.insert(only.chunk, { fromDurableSource: skipsWal(engine) })] : commitTableGroup(engine.groupCommitContext(), parts);
  assert(results.length === parts.length, 'one commit result per table of the group');
  results.forEach((result, k) => {
    const writer = parts[k].writer;
    publishCommit(writer, result);
  });
}

/**
 * A group whose requests all write one table, under commit mode nosync: each request is its own insert, in
 * order of first timestamp, with no WAL record. Nothing is fsynced in this mode, so one commit per group saves
 * only a _txn replace per request (microseconds against 50,000-row requests), while concatenating the group's
 * rows first copied all of them once more (a third of the commit's CPU). Requests that overlap each other or
 * start below the rows committed before them commit together (orderedUnits): at most one out-of-order merge
 * for the group instead of one each. A unit whose insert fails fails alone: the other requests' rows are
 * committed and answered as such.
 */
function commitEachRequest(
  writer: TableWriter, group: { readonly requests: readonly number[]; readonly tables: readonly PreparedTable[] }, rows: Float64Array, outcomes: (IlpCommitResult | Error)[], memory: ScratchMemory,
): void {
  assert(group.requests.length === group.tables.length, 'one request index per prepared table');
  // A request that spilled holds several chunks of the table: they commit together, as its one unit.
  const byRequest = new Map<number, IncomingChunk[]>();
  group.requests.forEach((k, index) => {
    const chunks = byRequest.get(k) ?? [];
    chunks.push(group.tables[index].chunk);
    byRequest.set(k, chunks);
  });
  const units = [...byRequest].map(([k, chunks]): CommitUnit => ({ requests: [k], chunk: concatIncomingChunks(chunks, memory) }));
  for (const unit of orderedUnits(writer, units, memory)) {
    try {
      const result = writer.insert(unit.chunk, { fromDurableSource: true });
      publishCommit(writer, result);
      for (const k of unit.requests) rows[k] = rows[k] + (byRequest.get(k) ?? []).reduce((sum, chunk) => sum + chunk.rowCount, 0);
    } catch (error) {
      for (const k of unit.requests) outcomes[k] = failure(error);
    }
  }
}

interface CommitUnit {
  readonly requests: readonly number[];
  readonly chunk: IncomingChunk;
}

/**
 * The units in insert order, by first timestamp. A unit that starts below the rows committed before the group
 * makes the group one out-of-order merge whatever the rest does, so every unit joins that one insert (rows
 * appended first would only be read back and rewritten by the merge). Otherwise units that overlap each other
 * (connections sending rows stamped with one clock) become one unit, which the writer sorts in memory and
 * appends; units that follow the ones before them stay separate appends. The split only saves copies: the
 * writer places any rows in any order correctly.
 */
function orderedUnits(writer: TableWriter, units: CommitUnit[], memory: ScratchMemory): CommitUnit[] {
  const tsIndex = writer.meta.timestampIndex;
  if (tsIndex < 0 || units.length < 2) return units;
  const nanos = writer.meta.columns[tsIndex]?.type === 'TIMESTAMP_NS';
  const sorted = units.map((unit) => ({
    unit, first: rowTimestamp(unit.chunk, tsIndex, 0, nanos), last: rowTimestamp(unit.chunk, tsIndex, unit.chunk.rowCount - 1, nanos),
  })).sort((a, b) => a.first - b.first);
  const committedMax = newestTimestamp(writer.txn.partitions);
  if (sorted[0].first < committedMax) return [joinedUnit(sorted.map((entry) => entry.unit), memory)];
  const runs: CommitUnit[][] = [];
  let runLast = -Infinity;
  for (const { unit, first, last } of sorted) {
    if (runs.length > 0 && first < runLast) runs[runs.length - 1].push(unit);
    else runs.push([unit]);
    runLast = Math.max(runLast, last);
  }
  return runs.map((run) => joinedUnit(run, memory));
}

/** Units committed as one insert, concatenated into `memory`. */
function joinedUnit(units: readonly CommitUnit[], memory: ScratchMemory): CommitUnit {
  if (units.length === 1) return units[0];
  return { requests: units.flatMap((unit) => unit.requests), chunk: concatIncomingChunks(units.map((unit) => unit.chunk), memory) };
}

/**
 * Whether a one-table group skips its WAL record (a third copy of the rows, after the staged file and the
 * group's chunk): every request is answered only after _txn is published, and with commit mode nosync or sync
 * the column files are as durable then as the record would have been (sync fsyncs them before the publish).
 * Under async the record is fsynced soon after the answer and the column files never are, so it stays.
 */
function skipsWal(engine: Engine): boolean {
  return engine.options.commitMode !== 'async';
}

/**
 * The requests' chunks ordered by their first designated timestamp: concurrent clients' requests arrive in any
 * order, and when their time ranges do not overlap this makes the concatenation ascending, so the writer
 * appends instead of sorting the group's rows.
 */
function inTimeOrder(writer: TableWriter, chunks: IncomingChunk[]): IncomingChunk[] {
  const tsIndex = writer.meta.timestampIndex;
  if (tsIndex < 0 || chunks.length < 2) return chunks;
  const firsts = chunks.map((chunk) => rowTimestamp(chunk, tsIndex, 0));
  return chunks.map((chunk, k) => ({ chunk, first: firsts[k] })).sort((a, b) => a.first - b.first).map((entry) => entry.chunk);
}

/** The designated timestamp of row `row` of a chunk (µs, floored from ns when `nanos`, as partition bounds are). */
function rowTimestamp(chunk: IncomingChunk, tsIndex: number, row: number, nanos = false): number {
  const timestamps = chunk.columns[tsIndex];
  assert(timestamps !== undefined && timestamps.kind === 'fixed' && row >= 0 && row < chunk.rowCount, 'the designated timestamp is a fixed-width column holding the row');
  return timestampsOf({ kind: 'fixed', width: timestamps.width, bytes: timestamps.bytes.subarray(row * timestamps.width, (row + 1) * timestamps.width) }, 1, nanos)[0];
}

function failure(error: unknown): Error {
  const converted = asStorageError(error);
  return converted instanceof Error ? converted : new SvcError('SVC_INTERNAL', String(converted), 500);
}
