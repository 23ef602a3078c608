// INSERT execution in the primary: target columns, VALUES or SELECT rows coerced to column types,
// designated-timestamp rules checked, then handed to the table writer (WAL first) in bounded chunks.
import type { InsertStatement } from '../sql/compiler.js';
import type { TableWriter } from '../storage/table-writer.js';
import type { ColumnData, RowChunk } from '../storage/row-chunk.js';
import { concatChunkList } from '../storage/row-chunk.js';
import { nullColumnData } from '../storage/column-files.js';
import { timestampsOf } from '../storage/partition-layout.js';
import { findColumnIndex } from '../storage/table-meta.js';
import type { Catalog } from '../storage/catalog.js';
import type { ColumnBatch, Vector } from '../sql/compiler.js';
import { bindQueryExpr, createExecContext, createRuntime, createSourceEnv } from '../sql/compiler.js';
import { encodeColumn } from './encode-batch.js';
import { evaluateValues } from './insert-values.js';
import { sqlRuntimeError, sqlSemanticError } from '../core/errors.js';
import { insertSelectChunkRowsMax } from '../core/limits.js';
import { commitChannel } from '../core/diagnostics.js';

/** Maps the statement's column list (or all columns) to table column indexes. */
function targetColumns(statement: InsertStatement, writer: TableWriter): number[] {
  if (statement.columns === undefined) return writer.meta.columns.map((_, k) => k);
  return statement.columns.map((name) => {
    const index = findColumnIndex(writer.meta, name.name);
    if (index < 0) throw sqlSemanticError(`Invalid column: ${name.name}`, name.position);
    return index;
  });
}

/** Builds a full-width row chunk: given columns encoded, the others null. */
function buildChunk(writer: TableWriter, targets: readonly number[], vectors: readonly Vector[], rowCount: number, position: number): RowChunk {
  const columns: ColumnData[] = writer.meta.columns.map((column, k) => {
    const source = targets.indexOf(k);
    if (source < 0) return nullColumnData(column.type, rowCount);
    return encodeColumn(vectors[source], rowCount, column.type, position);
  });
  const chunk = { rowCount, columns };
  checkDesignatedTimestamps(writer, chunk, targets, position);
  return chunk;
}

function checkDesignatedTimestamps(writer: TableWriter, chunk: RowChunk, targets: readonly number[], position: number): void {
  const tsIndex = writer.meta.timestampIndex;
  if (tsIndex < 0) return;
  if (!targets.includes(tsIndex)) throw sqlRuntimeError('designated timestamp column cannot be NULL', position);
  const timestamps = timestampsOf(chunk.columns[tsIndex], chunk.rowCount);
  for (let row = 0; row < timestamps.length; row++) {
    const value = timestamps[row];
    if (value === -9223372036854775808) throw sqlRuntimeError('designated timestamp column cannot be NULL', position);
    if (value < 0) throw sqlRuntimeError('timestamp before 1970-01-01 is not allowed', position);
  }
}

/** Inserts a chunk (one commit) and publishes the commit; returns the rows written. */
export function commitChunk(writer: TableWriter, chunk: RowChunk): number {
  const result = writer.insert(chunk);
  commitChannel.publish({ table: writer.meta.name, rowsCommitted: result.rowsWritten, outOfOrder: result.outOfOrder, tableRows: result.rowCount });
  return result.rowsWritten;
}

/** The rows of an INSERT ... VALUES as a full-width chunk of the table, checked and ready to commit. */
export function insertValuesChunk(statement: InsertStatement & { readonly rows: NonNullable<InsertStatement['rows']> }, writer: TableWriter, nowMicros: number): RowChunk {
  const targets = targetColumns(statement, writer);
  const targetTypes = targets.map((index) => writer.meta.columns[index]?.type ?? 'STRING');
  const targetNames = targets.map((index) => writer.meta.columns[index]?.name ?? '');
  const vectors = evaluateValues(statement, targetTypes, nowMicros, targetNames);
  return buildChunk(writer, targets, vectors, statement.rows.length, statement.position);
}

export function executeInsert(statement: InsertStatement, writer: TableWriter, catalog: Catalog, nowMicros: number, timeoutMs: number): number {
  if (statement.rows !== undefined) return commitChunk(writer, insertValuesChunk({ ...statement, rows: statement.rows }, writer, nowMicros));
  const targets = targetColumns(statement, writer);
  if (statement.query === undefined) throw sqlSemanticError('VALUES or SELECT expected', statement.position);
  const factory = bindQueryExpr(statement.query, createSourceEnv(catalog));
  if (factory.columns.length !== targets.length) {
    throw sqlSemanticError(`select clause must provide ${targets.length} columns [found=${factory.columns.length}]`, statement.query.position);
  }
  const ctx = createExecContext(createRuntime(nowMicros), { deadlineMs: Date.now() + timeoutMs, cancelled: false }, timeoutMs);
  const cursor = factory.open(ctx);
  let inserted = 0;
  // Batches are collected and concatenated once per commit: pairwise concatenation copied the growing
  // prefix again for every batch.
  let pending: RowChunk[] = [];
  let pendingRows = 0;
  try {
    for (let batch: ColumnBatch | undefined = cursor.nextBatch(); batch !== undefined; batch = cursor.nextBatch()) {
      if (batch.rowCount === 0) continue;
      const chunk = buildChunk(writer, targets, batch.vectors, batch.rowCount, statement.query.position);
      pending.push(chunk);
      pendingRows += chunk.rowCount;
      if (pendingRows >= insertSelectChunkRowsMax) {
        inserted += commitChunk(writer, concatChunkList(pending));
        pending = [];
        pendingRows = 0;
      }
    }
    if (pendingRows > 0) inserted += commitChunk(writer, concatChunkList(pending));
  } finally {
    cursor.close();
  }
  return inserted;
}
