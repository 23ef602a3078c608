// Primary side of ILP ingestion: commits a group of requests that waited for the writer at the same time.
// First every request's structure is settled (tables created, columns added, as QuestDB does even when the
// rows then fail), then each request's rows are laid out in its tables' current columns, then each table gets
// ONE record of every request's rows: one WAL append and one fsync per table for the whole group. A request
// that fails before that (its table changed under it, its staged file is unreadable) commits nothing and does
// not hold the others back. The rows of the group commit as one unit, all tables or none, also across a crash
// (one table: its insert; several: storage/group-commit.ts); a storage failure fails every request of the group.
import type { Engine } from './engine.js';
import type { IlpCommitRequest, IlpCommitResult, IlpTableBatch } from './writer-client.js';
import type { ColumnMeta, TableMeta } from '../storage/table-meta.js';
import type { TableWriter } from '../storage/table-writer.js';
import type { ColumnData } from '../storage/row-chunk.js';
import { concatIncomingChunks, nullSymbolIds, type IncomingChunk, type IncomingColumnData } from '../storage/symbol-ids.js';
import { readStagedChunks } from '../storage/staged-chunks.js';
import { timestampsOf } from '../storage/partition-layout.js';
import { nullColumnData } from '../storage/column-files.js';
import { textCodedColumnFromText } from './encode-batch.js';
import { uniqueStem } from './column-stems.js';
import { partitionUnitOf } from '../types/timestamp.js';
import { isValidTableName } from '../core/table-names.js';
import { SvcError, asStorageError } from '../core/errors.js';
import { commitTableGroup, type GroupPart } from '../storage/group-commit.js';
import { assert } from '../core/assert.js';
import type { CommitResult } from '../storage/table-writer.js';
import { commitChannel } from '../core/diagnostics.js';
import { removeTreeQuietly } from '../core/files.js';
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
    if (source < 0) return column.type === 'SYMBOL' ? nullSymbolIds(rowCount) : nullColumnData(column.type, rowCount);
    const data = staged.columns[source + offset];
    if (!isTextCodedType(column.type)) return data;
    assert(data.kind !== 'symbolIds', 'only SYMBOL columns travel as dictionary ids');
    return textCodedColumnFromText(data, rowCount, column.type);
  });
  return { rowCount, columns };
}

/** Reads a request's rows and settles its structure; the staged file is removed whatever happens. */
function prepareRequest(engine: Engine, request: IlpCommitRequest): { tables: IlpTableBatch[]; writers: TableWriter[]; chunks: IncomingChunk[] } {
  try {
    const chunks = readStagedChunks(request.stagedFile, request.tables.map((batch) => batch.chunk));
    const writers = request.tables.map((batch) => settleStructure(engine, batch, request.partitionBy));
    return { tables: [...request.tables], writers, chunks };
  } finally {
    removeTreeQuietly(engine.options.files, request.stagedFile);
  }
}

/** Commits a group of requests; each gets its result or its error, in order. */
export function commitIlpGroup(engine: Engine, requests: readonly IlpCommitRequest[]): (IlpCommitResult | Error)[] {
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
  try {
    commitTables(engine, byWriter);
    for (const group of byWriter.values()) {
      group.requests.forEach((k, index) => { rows[k] = rows[k] + group.tables[index].chunk.rowCount; });
    }
  } catch (error) {
    for (const group of byWriter.values()) for (const k of group.requests) outcomes[k] = failure(error);
  }
  return outcomes.map((outcome, k) => {
    if (outcome instanceof Error) return outcome;
    const created = requests[k]?.tables.filter((batch) => !namesBefore.has(batch.table.toLowerCase())).length ?? 0;
    return { rowsCommitted: rows[k], tablesCreated: created };
  });
}

/** One record per table of the group, all of them committing as one unit (the tables are all or none). */
function commitTables(engine: Engine, byWriter: ReadonlyMap<TableWriter, { tables: PreparedTable[] }>): void {
  const parts = [...byWriter].map(([writer, group]): GroupPart => ({ writer, chunk: concatIncomingChunks(inTimeOrder(writer, group.tables.map((table) => table.chunk))) }));
  if (parts.length === 0) return;
  const only = parts[0];
  // One table's _txn replace is atomic by itself; only several tables need the group's commit point.
  const results: CommitResult[] = parts.length === 1 ? [only.writer.insert(only.chunk)] : commitTableGroup(engine.groupCommitContext(), parts);
  assert(results.length === parts.length, 'one commit result per table of the group');
  results.forEach((result, k) => {
    const writer = parts[k].writer;
    commitChannel.publish({ table: writer.meta.name, rowsCommitted: result.rowsWritten, outOfOrder: result.outOfOrder, tableRows: result.rowCount });
  });
}

/**
 * The requests' chunks ordered by their first designated timestamp: concurrent clients' requests arrive in any
 * order, and when their time ranges do not overlap this makes the concatenation ascending, so the writer
 * appends instead of sorting the group's rows.
 */
function inTimeOrder(writer: TableWriter, chunks: IncomingChunk[]): IncomingChunk[] {
  const tsIndex = writer.meta.timestampIndex;
  if (tsIndex < 0 || chunks.length < 2) return chunks;
  const firsts = chunks.map((chunk) => {
    const timestamps = chunk.columns[tsIndex];
    assert(timestamps !== undefined && timestamps.kind === 'fixed', 'the designated timestamp is a fixed-width column');
    return timestampsOf(timestamps, 1)[0];
  });
  return chunks.map((chunk, k) => ({ chunk, first: firsts[k] })).sort((a, b) => a.first - b.first).map((entry) => entry.chunk);
}

function failure(error: unknown): Error {
  const converted = asStorageError(error);
  return converted instanceof Error ? converted : new SvcError('SVC_INTERNAL', String(converted), 500);
}
