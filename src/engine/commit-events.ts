// The commit event every write path publishes once a table's commit is done (metrics: commits, out-of-order
// merges, rows committed and physically written, the table's row count).
import { commitChannel } from '../core/diagnostics.js';
import type { CommitResult, TableWriter } from '../storage/table-writer.js';

/** Publishes `result`, the commit `writer` just made. */
export function publishCommit(writer: TableWriter, result: CommitResult): void {
  commitChannel.publish({ table: writer.meta.name, rowsCommitted: result.rowsWritten, outOfOrder: result.outOfOrder, rowsPhysical: result.rowsPhysical, tableRows: result.rowCount });
}
