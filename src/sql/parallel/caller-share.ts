// The calling thread's own share of a parallel query: while the threads run the other slices, the caller runs
// the first one itself instead of waiting idle, so a query on two cores takes one thread hop instead of two.
// Its plan is bound once per statement text, table version and slice (fragment-plans.ts) and reopened after.
// The share runs synchronously, so only queries known to be short take it (parallel-query.ts decides).
import type { Statement } from '../syntax/ast.js';
import type { Cancellation } from '../exec/operator.js';
import { createExecContext, drain } from '../exec/operator.js';
import { createRuntime } from '../codegen/runtime.js';
import type { ColumnBatch } from '../exec/batch.js';
import type { Catalog } from '../../storage/catalog.js';
import type { PartitionRows, TableSnapshot } from '../../storage/table-reader.js';
import { FragmentPlans } from './fragment-plans.js';
import { batchRowsMax } from '../../core/limits.js';

/** The calling thread's plans, over the snapshots its compiled queries opened. */
const plans = new FragmentPlans();

export interface CallerShare {
  readonly catalog: Catalog;
  readonly snapshot: TableSnapshot;
  readonly planKey: string;
  readonly statement: Statement;
  readonly slice: readonly PartitionRows[];
  readonly cancellation: Cancellation;
  readonly timeoutMs: number;
  readonly queryNowMicros: number;
}

/** Runs the caller's slice to its end and returns its partial result batches. */
export function runCallerShare(share: CallerShare): ColumnBatch[] {
  // Full batches: the caller checks its deadline between batches as a single-threaded query does.
  const factory = plans.plan(share.catalog, share.snapshot, share.planKey, share.statement, share.slice, batchRowsMax);
  const ctx = createExecContext(createRuntime(share.queryNowMicros), share.cancellation, share.timeoutMs);
  const cursor = factory.open(ctx);
  try {
    return drain(cursor, ctx);
  } finally {
    cursor.close();
  }
}
