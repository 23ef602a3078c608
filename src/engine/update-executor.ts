// UPDATE t SET c = expr[, ...] [FROM source] [WHERE ...] in the primary. Each committed partition is read,
// its matching rows found (update-join.ts) and the new values coerced to the column types with the INSERT
// rules (encode-batch.ts); only partitions with matches are rewritten, all of them swapped in by one _txn
// (TableWriter.rewritePartitions), so readers see the whole UPDATE or none of it. Answers the rows updated.
import type { BoundExpr, ColumnBatch, FromSource, SelectQuery, UpdateStatement, Vector } from '../sql/compiler.js';
import { Scope, bindExpression, bindQueryExpr, compileFilter, compileProjection, concatBatches, createExecContext, createRuntime, createSourceEnv, drain } from '../sql/compiler.js';
import type { ColumnData, RowChunk } from '../storage/row-chunk.js';
import type { TableWriter } from '../storage/table-writer.js';
import { findColumnIndex } from '../storage/table-meta.js';
import type { Catalog } from '../storage/catalog.js';
import type { Engine } from './engine.js';
import { encodeColumn } from './encode-batch.js';
import { chunkBatch, spliceRows, symbolsAsText } from './partition-rows.js';
import type { UpdateSource } from './update-join.js';
import { matchRows, prepareSource } from './update-join.js';
import { sqlSemanticError } from '../core/errors.js';
import type { ValueType } from '../types/column-type.js';
import { typeDisplayName } from '../types/column-type.js';
import { commitChannel } from '../core/diagnostics.js';

interface Assignment {
  readonly column: number;
  readonly value: BoundExpr;
  readonly position: number;
}

/** SET targets: existing, distinct columns other than the designated timestamp (QuestDB's checks, in its order). */
const NUMERIC_RANK: Partial<Record<ValueType, number>> = { BYTE: 0, SHORT: 1, INT: 2, LONG: 3, FLOAT: 4, DOUBLE: 5 };

/** QuestDB's UPDATE refuses to narrow a computed value (DOUBLE into INT, LONG into SHORT or CHAR); literals convert. */
function narrows(from: ValueType, to: ValueType): boolean {
  const fromRank = NUMERIC_RANK[from];
  if (fromRank === undefined) return false;
  if (to === 'CHAR') return fromRank > 1;
  const toRank = NUMERIC_RANK[to];
  return toRank !== undefined && fromRank > toRank;
}

function resolveTargets(statement: UpdateStatement, writer: TableWriter): number[] {
  const seen = new Set<number>();
  return statement.assignments.map(({ column }) => {
    const index = findColumnIndex(writer.meta, column.name);
    if (index < 0) throw sqlSemanticError(`Invalid column: ${column.name}`, column.position);
    if (index === writer.meta.timestampIndex) throw sqlSemanticError('Designated timestamp column cannot be updated', column.position);
    if (seen.has(index)) throw sqlSemanticError(`Duplicate column ${column.name} in SET clause`, column.position);
    seen.add(index);
    return index;
  });
}

/** Runs the FROM source once; its rows are joined with every partition of the target. */
function loadSource(from: FromSource, catalog: Catalog, nowMicros: number, timeoutMs: number): { batch: ColumnBatch; qualifiers: string[]; names: { name: string; type: Vector['type'] }[] } {
  const query: SelectQuery = {
    kind: 'select', position: from.position, with: [], distinct: false, columns: [{ expr: { kind: 'star', position: from.position } }],
    from, groupBy: [], orderBy: [],
  };
  const factory = bindQueryExpr(query, createSourceEnv(catalog));
  const ctx = createExecContext(createRuntime(nowMicros), { deadlineMs: Date.now() + timeoutMs, cancelled: false }, timeoutMs);
  const cursor = factory.open(ctx);
  try {
    const batch = concatBatches(drain(cursor, ctx), factory.columns.map((column) => column.type));
    const alias = from.kind === 'join' ? undefined : from.alias;
    // An alias replaces the table name, so `UPDATE up ... FROM up up2` tells the two sides apart.
    const qualifiers = alias !== undefined ? [alias.name] : from.kind === 'table' ? [from.name] : [];
    return { batch, qualifiers, names: factory.columns.map((column) => ({ name: column.name, type: column.type })) };
  } finally {
    cursor.close();
  }
}

export function executeUpdate(statement: UpdateStatement, engine: Engine, writer: TableWriter, nowMicros: number, timeoutMs: number): number {
  const meta = writer.meta;
  const targets = resolveTargets(statement, writer);
  const tableQualifiers = [meta.name, ...(statement.alias === undefined ? [] : [statement.alias.name])];
  const loaded = statement.from === undefined ? undefined : loadSource(statement.from, engine.catalog, nowMicros, timeoutMs);
  const scope = new Scope([
    ...meta.columns.map((column) => ({ name: column.name, type: column.type, qualifiers: tableQualifiers })),
    ...(loaded?.names ?? []).map((column) => ({ name: column.name, type: column.type, qualifiers: loaded?.qualifiers ?? [] })),
  ], false);
  const where = statement.where;
  const bindQuery = createSourceEnv(engine.catalog).bindQuery;
  const predicate = where === undefined ? undefined : bindExpression(where, { scope, clause: 'WHERE', bindQuery });
  if (predicate !== undefined && predicate.type !== 'BOOLEAN') throw sqlSemanticError('boolean expression expected', where?.position ?? 0);
  const assignments: Assignment[] = statement.assignments.map((assignment, k) => {
    const value = bindExpression(assignment.value, { scope, clause: 'SET', bindQuery });
    const column = targets[k];
    const target = meta.columns[column];
    if (value.kind !== 'constant' && target !== undefined && narrows(value.type, target.type)) {
      throw sqlSemanticError(`inconvertible types: ${typeDisplayName(value.type)} -> ${typeDisplayName(target.type)} [from=, to=${target.name}]`, assignment.value.position);
    }
    // A zero-row encode checks at bind time that the value's type converts to the column's.
    encodeColumn({ type: value.type, data: [] }, 0, meta.columns[column]?.type ?? 'STRING', assignment.value.position);
    return { column, value, position: assignment.value.position };
  });
  const rt = createRuntime(nowMicros);
  const source: UpdateSource | undefined = loaded === undefined ? undefined : prepareSource(loaded.batch, where, scope, meta.columns.length, rt);
  const filter = predicate === undefined ? undefined : compileFilter(predicate);
  const projection = compileProjection(assignments.map((assignment) => assignment.value));
  const deadline = Date.now() + timeoutMs;
  const replacements = new Map<string, RowChunk>();
  let updated = 0;
  for (const entry of writer.txn.partitions) {
    if (Date.now() > deadline) throw sqlSemanticError(`timeout, query aborted [timeout=${timeoutMs}ms]`, 0);
    const chunk = writer.readPartition(entry);
    const matched = matchRows(chunkBatch(chunk, writer), source, filter, rt);
    if (matched.count === 0) continue;
    const values = projection.run(matched.batch, rt);
    const columns: ColumnData[] = [...symbolsAsText(chunk, writer).columns];
    assignments.forEach((assignment, k) => {
      const type = meta.columns[assignment.column]?.type ?? 'STRING';
      const encoded = encodeColumn(values[k], matched.count, type, assignment.position);
      columns[assignment.column] = spliceRows(columns[assignment.column], chunk.rowCount, matched.rows, matched.count, encoded);
    });
    replacements.set(entry.name, { rowCount: chunk.rowCount, columns });
    updated += matched.count;
  }
  if (replacements.size > 0) {
    writer.rewritePartitions(replacements);
    commitChannel.publish({ table: meta.name, rowsCommitted: updated, outOfOrder: false, tableRows: writer.txn.rowCount });
  }
  return updated;
}
