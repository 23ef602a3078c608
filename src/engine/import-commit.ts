// Primary side of /imp: merges a finished staging segment into its table (creating or replacing the table
// when asked), in commits of at most maxUncommittedRows rows, yielding to the event loop between them so the
// primary keeps answering health checks. The segment is deleted afterwards, whatever the outcome.
import { checkTableName } from './table-name.js';
import type { Engine } from './engine.js';
import type { ImportCommitRequest, ImportCommitResult } from './writer-client.js';
import type { StagedColumnBytes } from '../storage/staging-segment.js';
import { readStagingSegment } from '../storage/staging-segment.js';
import type { TableMeta, ColumnMeta } from '../storage/table-meta.js';
import { findColumnIndex } from '../storage/table-meta.js';
import type { TableWriter } from '../storage/table-writer.js';
import type { ColumnData, RowChunk } from '../storage/row-chunk.js';
import { concatChunkList, gatherChunk } from '../storage/row-chunk.js';
import { nullColumnData } from '../storage/column-files.js';
import { timestampsOf } from '../storage/partition-layout.js';
import type { Vector } from '../sql/compiler.js';
import type { ColumnType } from '../types/column-type.js';
import { VECTOR_KIND } from '../types/column-type.js';
import type { PartitionUnit } from '../types/timestamp.js';
import { encodeColumn } from './encode-batch.js';
import { ImportError } from '../core/errors.js';
import { columnStemLengthMax, isValidTableName } from '../core/table-names.js';
import { commitChannel } from '../core/diagnostics.js';

const PARTITION_UNITS: readonly PartitionUnit[] = ['NONE', 'HOUR', 'DAY', 'WEEK', 'MONTH', 'YEAR'];
const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function stagedVector(column: StagedColumnBytes, rowCount: number): Vector {
  if (column.offsets !== undefined) {
    const values = new Array<string | null>(rowCount);
    for (let row = 0; row < rowCount; row++) {
      const start = column.offsets[row] as number;
      const length = column.bytes.readInt32LE(start);
      values[row] = length < 0 ? null : column.bytes.toString('utf8', start + 4, start + 4 + length);
    }
    return { type: column.type === 'UUID' ? 'UUID' : 'STRING', data: values };
  }
  const copy = new Uint8Array(column.bytes).buffer;
  const exact = column.exact === undefined ? undefined : new BigInt64Array(new Uint8Array(column.exact).buffer);
  const kind = VECTOR_KIND[column.type];
  const data = kind === 'f64' ? new Float64Array(copy) : kind === 'f32' ? new Float32Array(copy) : kind === 'i32' ? new Int32Array(copy)
    : kind === 'i16' ? new Int16Array(copy) : kind === 'u16' ? new Uint16Array(copy) : new Int8Array(copy);
  return exact === undefined ? { type: column.type, data } : { type: column.type, data, exact };
}

function createTable(engine: Engine, request: ImportCommitRequest, columns: readonly { name: string; type: ColumnType }[]): TableWriter {
  const partitionBy = (request.partitionBy.toUpperCase() || 'NONE') as PartitionUnit;
  if (!PARTITION_UNITS.includes(partitionBy)) throw new ImportError(`invalid partitionBy [value=${request.partitionBy}] [table=${request.table}]`);
  const metaColumns: ColumnMeta[] = columns.map((column, k) => ({ name: column.name, type: column.type, fileStem: `${(column.name.replace(/[^A-Za-z0-9_$-]/g, '_') || 'col').slice(0, columnStemLengthMax)}.${k}`, indexed: false, symbolCapacity: 256 }));
  let timestampIndex = -1;
  if (request.timestampColumn !== undefined && request.timestampColumn !== '') {
    timestampIndex = metaColumns.findIndex((column) => column.name.toLowerCase() === request.timestampColumn?.toLowerCase());
    if (timestampIndex < 0) throw new ImportError(`timestamp column not found [column=${request.timestampColumn}]`);
    if (metaColumns[timestampIndex]?.type !== 'TIMESTAMP') throw new ImportError(`timestamp column must be of TIMESTAMP type [column=${request.timestampColumn}]`);
  }
  if (partitionBy !== 'NONE' && timestampIndex < 0) throw new ImportError('partitioning requires a designated timestamp column');
  const options = engine.options;
  const meta: TableMeta = {
    formatVersion: 1, tableId: engine.allocateTableId(), name: request.table, columns: metaColumns, timestampIndex, partitionBy,
    walEnabled: partitionBy !== 'NONE', structureVersion: 0, maxUncommittedRows: options.uncommittedRowsMax, o3MaxLagMs: options.o3LagMaxMs, dedupKeys: [],
  };
  return engine.createTable(meta);
}

/** Encodes one staged batch into a full-width row chunk; rows whose designated timestamp is null or negative are dropped. */
function chunkOf(writer: TableWriter, names: readonly string[], batch: { rowCount: number; columns: StagedColumnBytes[] }): { chunk: RowChunk; dropped: number } {
  const meta = writer.meta;
  const columns: ColumnData[] = meta.columns.map((column) => {
    const source = names.findIndex((name) => name.toLowerCase() === column.name.toLowerCase());
    if (source < 0) return nullColumnData(column.type, batch.rowCount);
    const staged = batch.columns[source] as StagedColumnBytes;
    // Staged text is already in the column-file record format: STRING, VARCHAR and SYMBOL targets take it as is.
    const textTarget = column.type === 'STRING' || column.type === 'VARCHAR' || column.type === 'SYMBOL';
    if (textTarget && staged.offsets !== undefined && staged.type !== 'UUID') return { kind: 'var', bytes: staged.bytes, offsets: staged.offsets };
    return encodeColumn(stagedVector(staged, batch.rowCount), batch.rowCount, column.type, 0);
  });
  const chunk: RowChunk = { rowCount: batch.rowCount, columns };
  if (meta.timestampIndex < 0) return { chunk, dropped: 0 };
  const timestamps = timestampsOf(columns[meta.timestampIndex] as ColumnData, batch.rowCount);
  const keep = new Int32Array(batch.rowCount);
  let kept = 0;
  for (let row = 0; row < batch.rowCount; row++) {
    const value = timestamps[row] as number;
    if (value >= 0 && value !== -9223372036854775808) keep[kept++] = row;
  }
  return kept === batch.rowCount ? { chunk, dropped: 0 } : { chunk: gatherChunk(chunk, keep, 0, kept), dropped: batch.rowCount - kept };
}

export async function commitImport(engine: Engine, request: ImportCommitRequest): Promise<ImportCommitResult> {
  try {
    if (!isValidTableName(request.table)) throw new ImportError(`invalid table name [table=${request.table}]`);
    const segment = readStagingSegment(request.segmentDir);
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
    const names = segment.columns.map((column) => column.name);
    if (!created && !names.some((name) => findColumnIndex(writer.meta, name) >= 0)) throw new ImportError(`no column of the file matches the table [table=${request.table}]`);
    let committed = 0;
    let dropped = 0;
    let pending: RowChunk[] = [];
    let pendingRows = 0;
    const flush = (): void => {
      if (pendingRows === 0) return;
      // The rows come from the staging segment on disk and the client is answered only after _txn is
      // published, so a crash before that loses nothing acknowledged: no WAL record is needed.
      const result = writer.insert(concatChunkList(pending), { fromDurableSource: true });
      committed += result.rowsWritten;
      commitChannel.publish({ table: writer.meta.name, rowsCommitted: result.rowsWritten, outOfOrder: result.outOfOrder, tableRows: result.rowCount });
      pending = [];
      pendingRows = 0;
    };
    for (const batch of segment.batches()) {
      const encoded = chunkOf(writer, names, batch);
      dropped += encoded.dropped;
      pending.push(encoded.chunk);
      pendingRows += encoded.chunk.rowCount;
      if (pendingRows >= writer.meta.maxUncommittedRows) {
        flush();
        await yieldToEventLoop();
      }
    }
    flush();
    return { rowsCommitted: committed, created, rowsDropped: dropped };
  } finally {
    engine.options.files.removeTree(request.segmentDir);
  }
}
