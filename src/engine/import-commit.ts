// Primary side of /imp: merges a finished staging segment into its table (creating or replacing the table
// when asked). Staged partitions that are new to the table and in order are adopted as they are (their
// files are moved in); the others are inserted. When those others hold at most maxUncommittedRows rows, all
// of it is one commit (all-or-nothing, also across a crash); a larger remainder goes in commits of that many
// rows, yielding to the event loop between them so the primary keeps answering health checks. The segment is
// deleted afterwards, whatever the outcome.
import { isDesignatedTimestampType } from '../types/timestamp-ns.js';
import { checkTableName } from './table-name.js';
import type { Engine } from './engine.js';
import type { ImportCommitRequest, ImportCommitResult } from './writer-client.js';
import { readStagingSegment, type StagedPartition, type StagingSegment } from '../storage/staging-segment.js';
import type { AdoptedPartition } from '../storage/partition-adoption.js';
import type { TableMeta, ColumnMeta } from '../storage/table-meta.js';
import { storableRows } from '../storage/partition-split.js';
import type { TableWriter } from '../storage/table-writer.js';
import type { ColumnData, RowChunk } from '../storage/row-chunk.js';
import { concatChunkList, gatherChunk } from '../storage/row-chunk.js';
import { nullColumnData } from '../storage/column-files.js';
import { timestampsOf } from '../storage/partition-layout.js';
import type { ColumnType } from '../types/column-type.js';
import { partitionUnitOf } from '../types/timestamp.js';
import { textCodedColumnFromText } from './encode-batch.js';
import { ImportError } from '../core/errors.js';
import { columnStemLengthMax, isValidTableName } from '../core/table-names.js';
import { commitChannel } from '../core/diagnostics.js';
import { publishCommit } from './commit-events.js';
import { isTextCodedType } from '../types/coded-columns.js';

const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function createTable(engine: Engine, request: ImportCommitRequest, columns: readonly { name: string; type: ColumnType }[]): TableWriter {
  const partitionBy = partitionUnitOf(request.partitionBy);
  if (partitionBy === undefined) throw new ImportError(`invalid partitionBy [value=${request.partitionBy}] [table=${request.table}]`);
  const metaColumns: ColumnMeta[] = columns.map((column, k) => ({ name: column.name, type: column.type, fileStem: `${(column.name.replace(/[^A-Za-z0-9_$-]/g, '_') || 'col').slice(0, columnStemLengthMax)}.${k}`, indexed: false, symbolCapacity: 256 }));
  let timestampIndex = -1;
  if (request.timestampColumn !== undefined && request.timestampColumn !== '') {
    timestampIndex = metaColumns.findIndex((column) => column.name.toLowerCase() === request.timestampColumn?.toLowerCase());
    if (timestampIndex < 0) throw new ImportError(`timestamp column not found [column=${request.timestampColumn}]`);
    if (!isDesignatedTimestampType(metaColumns[timestampIndex]?.type)) throw new ImportError(`timestamp column must be of TIMESTAMP type [column=${request.timestampColumn}]`);
  }
  if (partitionBy !== 'NONE' && timestampIndex < 0) throw new ImportError('partitioning requires a designated timestamp column');
  const options = engine.options;
  const meta: TableMeta = {
    formatVersion: 1, tableId: engine.allocateTableId(), name: request.table, columns: metaColumns, timestampIndex, partitionBy,
    walEnabled: partitionBy !== 'NONE', structureVersion: 0, maxUncommittedRows: options.uncommittedRowsMax, o3MaxLagMs: options.o3LagMaxMs, dedupKeys: [],
  };
  return engine.createTable(meta);
}

/**
 * For each table column, the segment column that fills it (-1: none, the rows get nulls). The session
 * staged values in the table's types; if the table was changed meanwhile, nothing is committed.
 */
function mapStagedColumns(meta: TableMeta, staged: readonly { name: string; type: ColumnType }[]): Int32Array {
  return Int32Array.from(meta.columns, (column) => {
    const source = staged.findIndex((candidate) => candidate.name.toLowerCase() === column.name.toLowerCase());
    const stagedType = staged[source]?.type;
    if (source >= 0 && stagedType !== column.type) {
      throw new ImportError(`column type changed during import [column=${column.name}, expected=${stagedType}, actual=${column.type}] [table=${meta.name}]`);
    }
    return source;
  });
}

/** One staged chunk as a full-width row chunk of the table; rows whose designated timestamp is null or negative are dropped. */
function chunkOf(meta: TableMeta, sources: Int32Array, staged: RowChunk): { chunk: RowChunk; dropped: number } {
  const rowCount = staged.rowCount;
  const columns: ColumnData[] = meta.columns.map((column, k) => {
    const source = sources[k];
    if (source < 0) return nullColumnData(column.type, rowCount);
    const data = staged.columns[source];
    return isTextCodedType(column.type) ? textCodedColumnFromText(data, rowCount, column.type) : data;
  });
  const chunk: RowChunk = { rowCount, columns };
  if (meta.timestampIndex < 0) return { chunk, dropped: 0 };
  const kept = storableRows(timestampsOf(columns[meta.timestampIndex], rowCount));
  return kept.length === rowCount ? { chunk, dropped: 0 } : { chunk: gatherChunk(chunk, kept, 0, kept.length), dropped: rowCount - kept.length };
}

/**
 * Staged partitions that can become partitions of the table as they are: the segment was split the way the
 * table is partitioned, the table does not deduplicate, no column needs converting (UUID text), and the
 * partition is new to the table and in timestamp order.
 */
function adoptablePartitions(writer: TableWriter, segment: StagingSegment, sources: Int32Array): StagedPartition[] {
  const meta = writer.meta;
  const sameTimestamp = meta.timestampIndex < 0 ? segment.layout.timestampIndex < 0 : sources[meta.timestampIndex] === segment.layout.timestampIndex;
  const converted = meta.columns.some((column, k) => isTextCodedType(column.type) && sources[k] >= 0);
  if (meta.dedupKeys.length > 0 || meta.partitionBy !== segment.layout.partitionBy || !sameTimestamp || converted) return [];
  const existing = new Set(writer.txn.partitions.map((entry) => entry.name));
  return segment.partitions.filter((partition) => partition.ordered && partition.rowCount > 0 && !existing.has(partition.name));
}

function adoptedPartition(meta: TableMeta, segment: StagingSegment, partition: StagedPartition, sources: Int32Array): AdoptedPartition {
  return {
    name: partition.name, rowCount: partition.rowCount, minTimestamp: partition.minTimestamp, maxTimestamp: partition.maxTimestamp,
    dir: segment.partitionDir(partition),
    columns: meta.columns.map((_, k) => (sources[k] < 0 ? undefined : segment.columnMetas[sources[k]])),
  };
}

/** The other staged partitions go through the writer's insert, in commits of at most maxUncommittedRows rows. */
async function insertStagedRows(writer: TableWriter, segment: StagingSegment, partitions: readonly StagedPartition[], sources: Int32Array): Promise<{ rows: number; dropped: number }> {
  let rows = 0;
  let dropped = 0;
  const step = Math.max(1, writer.meta.maxUncommittedRows);
  for (const partition of partitions) {
    for (let from = 0; from < partition.rowCount; from += step) {
      const encoded = chunkOf(writer.meta, sources, segment.readRows(partition, from, Math.min(partition.rowCount, from + step)));
      dropped += encoded.dropped;
      // The rows come from the staging segment on disk and the client is answered only after _txn is
      // published, so a crash before that loses nothing acknowledged: no WAL record is needed.
      const result = writer.insert(encoded.chunk, { fromDurableSource: true });
      rows += result.rowsWritten;
      publishCommit(writer, result);
      await yieldToEventLoop();
    }
  }
  return { rows, dropped };
}

export async function commitImport(engine: Engine, request: ImportCommitRequest): Promise<ImportCommitResult> {
  try {
    if (!isValidTableName(request.table)) throw new ImportError(`invalid table name [table=${request.table}]`);
    const segment = readStagingSegment(engine.options.files, request.segmentDir);
    let stored = engine.catalog.resolveName(request.table);
    if (stored !== undefined && request.overwrite) {
      engine.dropTable(stored);
      stored = undefined;
    }
    if (stored === undefined && !request.create) throw new ImportError(`table does not exist [table=${request.table}]`);
    const created = stored === undefined;
    // The worker cleans names already; the primary checks again because the name becomes a directory.
    if (created) checkTableName({ name: request.table, position: 0 });
    const writer = created ? createTable(engine, request, segment.columns) : engine.writer(stored as string);
    if (writer === undefined) throw new ImportError(`table does not exist [table=${request.table}]`);
    const sources = mapStagedColumns(writer.meta, segment.columns);
    if (!created && sources.every((source) => source < 0)) throw new ImportError(`no column of the file matches the table [table=${request.table}]`);
    const adoptable = adoptablePartitions(writer, segment, sources);
    const adopted = adoptable.map((partition) => adoptedPartition(writer.meta, segment, partition, sources));
    const rest = segment.partitions.filter((partition) => !adoptable.includes(partition));
    const restRows = rest.reduce((sum, partition) => sum + partition.rowCount, 0);
    if (restRows <= writer.meta.maxUncommittedRows) {
      // Everything in one commit: the import is all-or-nothing, also across a crash.
      const encoded = rest.map((partition) => chunkOf(writer.meta, sources, segment.readRows(partition, 0, partition.rowCount)));
      const rows = encoded.length === 0 ? undefined : concatChunkList(encoded.map((part) => part.chunk));
      const dropped = encoded.reduce((sum, part) => sum + part.dropped, 0);
      if (adoptable.length === 0 && (rows === undefined || rows.rowCount === 0)) return { rowsCommitted: 0, created, rowsDropped: segment.droppedRows + dropped };
      const result = writer.adoptPartitions(adopted, rows);
      publishCommit(writer, result);
      return { rowsCommitted: result.rowsWritten, created, rowsDropped: segment.droppedRows + dropped };
    }
    // A large remainder is inserted in commits of maxUncommittedRows rows, after the adopted partitions.
    let committed = 0;
    if (adoptable.length > 0) {
      const result = writer.adoptPartitions(adopted);
      committed += result.rowsWritten;
      commitChannel.publish({ table: writer.meta.name, rowsCommitted: result.rowsWritten, outOfOrder: false, rowsPhysical: result.rowsPhysical, tableRows: result.rowCount });
      await yieldToEventLoop();
    }
    const inserted = await insertStagedRows(writer, segment, rest, sources);
    return { rowsCommitted: committed + inserted.rows, created, rowsDropped: segment.droppedRows + inserted.dropped };
  } finally {
    engine.options.files.removeTree(request.segmentDir);
  }
}
