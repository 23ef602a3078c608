// Group commit of INSERT ... VALUES statements that waited for the writer at the same time. Each statement is
// bound and evaluated on its own, so its errors (a bad value, an unknown column, a NULL designated timestamp)
// are its own; then each table gets ONE insert of every statement's rows: one WAL append and one fsync for
// the group instead of one per statement. A storage failure fails every statement of that table.
import type { InsertStatement } from '../sql/compiler.js';
import type { Engine } from './engine.js';
import type { WriteResult } from './writer-client.js';
import type { TableWriter } from '../storage/table-writer.js';
import type { RowChunk } from '../storage/row-chunk.js';
import { concatChunkList } from '../storage/row-chunk.js';
import { commitChunk, insertValuesChunk } from './insert-executor.js';
import { sqlSemanticError, asStorageError, SvcError } from '../core/errors.js';

export type InsertValuesStatement = InsertStatement & { readonly rows: NonNullable<InsertStatement['rows']> };

export function isInsertValues(statement: { readonly kind: string }): statement is InsertValuesStatement {
  return statement.kind === 'insert' && (statement as InsertStatement).rows !== undefined;
}

function writerOf(engine: Engine, statement: InsertValuesStatement): TableWriter {
  const stored = engine.catalog.resolveName(statement.table.name);
  const writer = stored === undefined ? undefined : engine.writer(stored);
  if (writer === undefined) throw sqlSemanticError(`table does not exist [table=${statement.table.name}]`, statement.table.position);
  return writer;
}

/** Commits the statements; each gets its acknowledgement or its error, in order. */
export function commitInsertGroup(engine: Engine, statements: readonly InsertValuesStatement[]): (WriteResult | Error)[] {
  const outcomes: (WriteResult | Error)[] = statements.map(() => ({ kind: 'insert', rows: 0 }));
  const byWriter = new Map<TableWriter, { indexes: number[]; chunks: RowChunk[] }>();
  const nowMicros = Date.now() * 1000;
  // A name is resolved once per group (a look-up of the table's _txn on disk), not once per statement.
  const writers = new Map<string, TableWriter>();
  statements.forEach((statement, k) => {
    try {
      const writer = writers.get(statement.table.name) ?? writerOf(engine, statement);
      writers.set(statement.table.name, writer);
      const chunk = insertValuesChunk(statement, writer, engine.catalog, nowMicros);
      const group = byWriter.get(writer) ?? { indexes: [], chunks: [] };
      group.indexes.push(k);
      group.chunks.push(chunk);
      byWriter.set(writer, group);
    } catch (error) {
      outcomes[k] = asError(error);
    }
  });
  for (const [writer, group] of byWriter) {
    try {
      commitChunk(writer, concatChunkList(group.chunks));
      group.indexes.forEach((k, index) => { outcomes[k] = { kind: 'insert', rows: group.chunks[index].rowCount }; });
    } catch (error) {
      for (const k of group.indexes) outcomes[k] = asError(asStorageError(error));
    }
  }
  return outcomes;
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new SvcError('SVC_INTERNAL', String(error), 500);
}
