// UPDATE t SET c = expr[, ...] [FROM source] [WHERE ...] in the primary. The statement is bound in sql/
// (bindUpdate); here each committed partition is read, its matching rows found (update-join.ts) and the new
// values coerced to the column types with the INSERT rules (encode-batch.ts); only partitions with matches are
// rewritten, all of them swapped in by one _txn (TableWriter.rewritePartitions), so readers see the whole
// UPDATE or none of it. Answers the rows updated.
import type { BoundUpdate, UpdateStatement } from '../sql/compiler.js';
import { bindUpdate, createRuntime, createSourceEnv } from '../sql/compiler.js';
import type { ColumnData, RowChunk } from '../storage/row-chunk.js';
import type { TableWriter } from '../storage/table-writer.js';
import type { Engine } from './engine.js';
import { encodeColumn } from './encode-batch.js';
import { chunkBatch, spliceRows, symbolsAsText } from './partition-rows.js';
import { matchRows } from './update-join.js';
import { sqlSemanticError } from '../core/errors.js';
import { commitChannel } from '../core/diagnostics.js';

export function executeUpdate(statement: UpdateStatement, engine: Engine, writer: TableWriter, nowMicros: number, timeoutMs: number): number {
  const bound = bindUpdate(statement, writer.meta, createSourceEnv(engine.catalog), {
    nowMicros, timeoutMs,
    // A zero-row encode checks at bind time that the value's type converts to the column's.
    checkAssignable: (from, to, position) => { encodeColumn({ type: from, data: [] }, 0, to, position); },
  });
  const { chunks, updated } = rewrittenPartitions(bound, writer, nowMicros, timeoutMs);
  if (chunks.size > 0) {
    const rowsPhysical = writer.rewritePartitions(chunks);
    commitChannel.publish({ table: writer.meta.name, rowsCommitted: updated, outOfOrder: false, rowsPhysical, tableRows: writer.txn.rowCount });
  }
  return updated;
}

/** Each partition with matching rows, rewritten (by name), and how many rows changed in all. */
function rewrittenPartitions(bound: BoundUpdate, writer: TableWriter, nowMicros: number, timeoutMs: number): { chunks: Map<string, RowChunk>; updated: number } {
  const meta = writer.meta;
  const rt = createRuntime(nowMicros);
  const deadline = Date.now() + timeoutMs;
  const chunks = new Map<string, RowChunk>();
  let updated = 0;
  for (const entry of writer.txn.partitions) {
    if (Date.now() > deadline) throw sqlSemanticError(`timeout, query aborted [timeout=${timeoutMs}ms]`, 0);
    const chunk = writer.readPartition(entry);
    const matched = matchRows(chunkBatch(chunk, writer), bound.source, bound.filter, rt);
    if (matched.count === 0) continue;
    const values = bound.values.run(matched.batch, rt);
    const columns: ColumnData[] = [...symbolsAsText(chunk, writer).columns];
    bound.assignments.forEach((assignment, k) => {
      const type = meta.columns[assignment.column]?.type ?? 'STRING';
      const encoded = encodeColumn(values[k], matched.count, type, assignment.position);
      columns[assignment.column] = spliceRows(columns[assignment.column], chunk.rowCount, matched.rows, matched.count, encoded);
    });
    chunks.set(entry.name, { rowCount: chunk.rowCount, columns });
    updated += matched.count;
  }
  return { chunks, updated };
}
