// Group commit of INSERT ... VALUES statements that waited for the writer at the same time. Each statement's
// errors (a bad value, an unknown column, a NULL designated timestamp) are its own: consecutive statements of
// one VALUES shape are bound together, and one by one when that fails. Then each table gets ONE insert of every
// statement's rows, in arrival order: one WAL append and one fsync for the group instead of one per statement.
// A storage failure fails every statement of that table.
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

/**
 * A key two statements share when their VALUES rows are bound alike: the same column list and, expression by
 * expression, the same literal type or the same argument-less call, so each column's values take the same
 * vector type whether bound alone or together. Undefined for any other expression (bound on its own).
 */
function valuesShapeOf(statement: InsertValuesStatement): string | undefined {
  let key = statement.columns === undefined ? '*' : statement.columns.map((column) => column.name).join(',');
  for (const row of statement.rows) {
    key += '|';
    for (const expr of row) {
      if (expr.kind === 'literal') key += `L${expr.literalType},`;
      else if (expr.kind === 'call' && expr.args.length === 0 && !expr.star) key += `C${expr.name},`;
      else return undefined;
    }
  }
  return key;
}

/** Statements of one table in arrival order, cut into runs of one VALUES shape; a run is bound as one statement. */
interface TableRuns {
  readonly writer: TableWriter;
  readonly runs: { readonly shape: string | undefined; readonly indexes: number[] }[];
}

function runsByTable(engine: Engine, statements: readonly InsertValuesStatement[], outcomes: (WriteResult | Error)[]): Map<TableWriter, TableRuns> {
  const tables = new Map<TableWriter, TableRuns>();
  // A name is resolved once per group (a look-up of the table's _txn on disk), not once per statement.
  const writers = new Map<string, TableWriter>();
  statements.forEach((statement, k) => {
    try {
      const writer = writers.get(statement.table.name) ?? writerOf(engine, statement);
      writers.set(statement.table.name, writer);
      const table = tables.get(writer) ?? { writer, runs: [] };
      tables.set(writer, table);
      const shape = valuesShapeOf(statement);
      const last = table.runs[table.runs.length - 1];
      if (last !== undefined && shape !== undefined && last.shape === shape) last.indexes.push(k);
      else table.runs.push({ shape, indexes: [k] });
    } catch (error) {
      outcomes[k] = asError(error);
    }
  });
  return tables;
}

/**
 * The chunks of one table's statements, in arrival order, each with the statements it holds. A run of one shape
 * is bound as one statement of all its rows (one column resolution, one vector and encoding per column); when
 * that fails, its statements are bound one by one, so each error is its own statement's, at its own position.
 */
function tableChunks(engine: Engine, table: TableRuns, statements: readonly InsertValuesStatement[], nowMicros: number, outcomes: (WriteResult | Error)[]): { chunk: RowChunk; indexes: number[] }[] {
  const chunks: { chunk: RowChunk; indexes: number[] }[] = [];
  for (const run of table.runs) {
    if (run.indexes.length > 1) {
      const first = statements[run.indexes[0]];
      const merged: InsertValuesStatement = { ...first, rows: run.indexes.flatMap((k) => statements[k].rows) };
      try {
        chunks.push({ chunk: insertValuesChunk(merged, table.writer, engine.catalog, nowMicros), indexes: run.indexes });
        continue;
      } catch {
        // Bound one by one below.
      }
    }
    for (const k of run.indexes) {
      try {
        chunks.push({ chunk: insertValuesChunk(statements[k], table.writer, engine.catalog, nowMicros), indexes: [k] });
      } catch (error) {
        outcomes[k] = asError(error);
      }
    }
  }
  return chunks;
}

/** Commits the statements; each gets its acknowledgement or its error, in order. */
export function commitInsertGroup(engine: Engine, statements: readonly InsertValuesStatement[]): (WriteResult | Error)[] {
  const outcomes: (WriteResult | Error)[] = statements.map(() => ({ kind: 'insert', rows: 0 }));
  const nowMicros = Date.now() * 1000;
  for (const table of runsByTable(engine, statements, outcomes).values()) {
    const chunks = tableChunks(engine, table, statements, nowMicros, outcomes);
    if (chunks.length === 0) continue;
    try {
      commitChunk(table.writer, concatChunkList(chunks.map((entry) => entry.chunk)));
      for (const entry of chunks) {
        for (const k of entry.indexes) outcomes[k] = { kind: 'insert', rows: statements[k].rows.length };
      }
    } catch (error) {
      for (const entry of chunks) {
        for (const k of entry.indexes) outcomes[k] = asError(asStorageError(error));
      }
    }
  }
  return outcomes;
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new SvcError('SVC_INTERNAL', String(error), 500);
}
