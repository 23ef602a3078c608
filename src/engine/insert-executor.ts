// INSERT execution in the primary: the statement is bound in sql/ (target columns, VALUES rows evaluated or
// the SELECT's factory); here rows are coerced to column types, designated-timestamp rules checked, then
// handed to the table writer (WAL first) in bounded chunks.
import type { BoundInsert, InsertStatement } from '../sql/compiler.js';
import type { TableWriter } from '../storage/table-writer.js';
import type { ColumnData, RowChunk } from '../storage/row-chunk.js';
import { concatChunkList } from '../storage/row-chunk.js';
import { nullColumnData } from '../storage/column-files.js';
import { timestampsOf } from '../storage/partition-layout.js';
import type { Catalog } from '../storage/catalog.js';
import type { ColumnBatch, Vector } from '../sql/compiler.js';
import { bindInsert, createExecContext, createRuntime, createSourceEnv } from '../sql/compiler.js';
import { encodeColumn } from './encode-batch.js';
import { sqlRuntimeError } from '../core/errors.js';
import { assert, assertNever } from '../core/assert.js';
import { insertSelectChunkRowsMax } from '../core/limits.js';
import { publishCommit } from './commit-events.js';

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
  publishCommit(writer, result);
  return result.rowsWritten;
}

/** The rows of an INSERT ... VALUES as a full-width chunk of the table, checked and ready to commit. */
export function insertValuesChunk(statement: InsertStatement & { readonly rows: NonNullable<InsertStatement['rows']> }, writer: TableWriter, catalog: Catalog, nowMicros: number): RowChunk {
  const bound = bindInsert(statement, writer.meta, createSourceEnv(catalog), nowMicros);
  assert(bound.kind === 'insertValues', 'a statement with VALUES rows binds to insertValues');
  return buildChunk(writer, bound.targets, bound.vectors, bound.rowCount, bound.position);
}

export function executeInsert(statement: InsertStatement, writer: TableWriter, catalog: Catalog, nowMicros: number, timeoutMs: number): number {
  const bound = bindInsert(statement, writer.meta, createSourceEnv(catalog), nowMicros);
  switch (bound.kind) {
    case 'insertValues': return commitChunk(writer, buildChunk(writer, bound.targets, bound.vectors, bound.rowCount, bound.position));
    case 'insertSelect': return insertSelect(bound, writer, nowMicros, timeoutMs);
    default: return assertNever(bound, 'bound INSERT');
  }
}

/** Runs the query and commits its rows in chunks of about insertSelectChunkRowsMax rows. */
function insertSelect(bound: Extract<BoundInsert, { kind: 'insertSelect' }>, writer: TableWriter, nowMicros: number, timeoutMs: number): number {
  const ctx = createExecContext(createRuntime(nowMicros), { deadlineMs: Date.now() + timeoutMs, cancelled: false }, timeoutMs);
  const cursor = bound.query.open(ctx);
  let inserted = 0;
  // Batches are collected and concatenated once per commit: pairwise concatenation copied the growing
  // prefix again for every batch.
  let pending: RowChunk[] = [];
  let pendingRows = 0;
  try {
    for (let batch: ColumnBatch | undefined = cursor.nextBatch(); batch !== undefined; batch = cursor.nextBatch()) {
      if (batch.rowCount === 0) continue;
      const chunk = buildChunk(writer, bound.targets, batch.vectors, batch.rowCount, bound.position);
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
