// The calling thread's own share of a parallel query: while the threads run their morsels, the caller claims
// morsels from the same counter (morsels.ts) and runs them itself instead of waiting idle, so a query on two cores
// takes one thread hop instead of two. Its plans are bound once per statement text, table version and morsel
// (fragment-plans.ts) and reopened after. The share runs synchronously, so only queries known to be short take it
// (parallel-query.ts decides).
import type { Statement } from '../syntax/ast.js';
import type { Cancellation } from '../exec/operator.js';
import { createExecContext, drain } from '../exec/operator.js';
import { createRuntime } from '../codegen/runtime.js';
import type { Catalog } from '../../storage/catalog.js';
import type { PartitionRows, TableSnapshot } from '../../storage/table-reader.js';
import { FragmentPlans } from './fragment-plans.js';
import type { MorselPart } from './morsels.js';
import { claimMorsels } from './morsels.js';
import { batchRowsMax } from '../../core/limits.js';

/** The calling thread's plans, over the snapshots its compiled queries opened. */
const plans = new FragmentPlans();

export interface CallerShare {
  readonly catalog: Catalog;
  readonly snapshot: TableSnapshot;
  readonly planKey: string;
  readonly statement: Statement;
  readonly morsels: readonly (readonly PartitionRows[])[];
  /** The query's shared Int32s and the index of its morsel counter among them. */
  readonly counters: Int32Array;
  readonly counterIndex: number;
  readonly cancellation: Cancellation;
  readonly timeoutMs: number;
  readonly queryNowMicros: number;
}

/** Claims and runs morsels until none is left; returns the partial result batches of each one it ran. */
export function runCallerShare(share: CallerShare): MorselPart[] {
  const ctx = createExecContext(createRuntime(share.queryNowMicros), share.cancellation, share.timeoutMs);
  return claimMorsels(share.counters, share.counterIndex, share.morsels.length, (morselIndex) => {
    // Full batches: the caller checks its deadline between batches as a single-threaded query does.
    const factory = plans.plan(share.catalog, share.snapshot, share.planKey, share.statement, share.morsels[morselIndex], batchRowsMax);
    const cursor = factory.open(ctx);
    try {
      return drain(cursor, ctx);
    } finally {
      cursor.close();
    }
  });
}
