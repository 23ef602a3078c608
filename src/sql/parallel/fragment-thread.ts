// Entry of a parallel query thread (worker_threads): runs fragments one at a time. Each request carries (or names,
// when this thread was sent it before: fragment-contexts.ts) the caller's _meta and _txn, so the thread maps
// exactly the rows the caller's snapshot sees, restricted to its slice; it binds and plans the fragment statement
// itself the first time (fragment-plans.ts keeps the plan for that txn and slice), drains it, and replies with the
// result batches in compact form, cloned (never transferred: fragment-messages.ts says why). Cancellation is a
// shared flag read between batches, plus the query deadline.
import { parentPort } from 'node:worker_threads';
import { dirname } from 'node:path';
import type { Cancellation } from '../exec/operator.js';
import { createExecContext, drain } from '../exec/operator.js';
import { createRuntime } from '../codegen/runtime.js';
import { Catalog } from '../../storage/catalog.js';
import { TableSnapshot } from '../../storage/table-reader.js';
import { SqlError } from '../../core/errors.js';
import type { ColumnBatch } from '../exec/batch.js';
import type { FragmentReply, FragmentRequest } from './fragment-messages.js';
import { encodeBatch, isFragmentRequest } from './fragment-messages.js';
import { FragmentPlans } from './fragment-plans.js';
import { HeldContexts } from './fragment-contexts.js';

/** Smallest scan batch of a fragment (batches start there and grow while the consumer keeps pace). */
const FRAGMENT_BATCH_ROWS_MIN = 256;

/** One catalog per database directory, so symbol texts are read once per thread. */
const catalogs = new Map<string, Catalog>();
/** The snapshot of the last txn seen per table and the plans run over it: later fragments reopen them. */
const plans = new FragmentPlans();
/** The statements and table versions this thread was sent, which later requests name by key. */
const contexts = new HeldContexts();

function catalogFor(dbDir: string): Catalog {
  let catalog = catalogs.get(dbDir);
  if (catalog === undefined) {
    catalog = new Catalog(dbDir);
    catalogs.set(dbDir, catalog);
  }
  return catalog;
}

function runFragment(request: FragmentRequest): ColumnBatch[] {
  // First, before anything can fail: the pool's mirror counts every request as having reached this cache.
  const context = contexts.resolve(request.contextKey, request.context);
  const flag = new Int32Array(request.cancelFlag);
  const index = request.cancelIndex;
  const cancellation: Cancellation = {
    deadlineMs: request.deadlineMs,
    get cancelled(): boolean {
      return Atomics.load(flag, index) !== 0;
    },
    set cancelled(value: boolean) {
      if (value) Atomics.store(flag, index, 1);
    },
    reason: 'cancelled by user',
  };
  const ctx = createExecContext(createRuntime(request.queryNowMicros), cancellation, request.timeoutMs);
  const { dir, meta, txn } = context.snapshot;
  const catalog = catalogFor(dirname(dir));
  const snapshot = plans.snapshotOf(dir, meta, txn, () => new TableSnapshot(dir, meta, txn, catalog.symbolCache));
  const factory = plans.plan(catalog, snapshot, context.planKey, context.statement, request.slice, FRAGMENT_BATCH_ROWS_MIN);
  const cursor = factory.open(ctx);
  try {
    return drain(cursor, ctx);
  } finally {
    cursor.close();
  }
}

function reply(request: FragmentRequest): FragmentReply {
  try {
    return { kind: 'done', fragmentId: request.fragmentId, batches: runFragment(request).map((batch) => encodeBatch(batch)) };
  } catch (error) {
    const sql = error instanceof SqlError ? error : undefined;
    const message = error instanceof Error ? error.message : String(error);
    return { kind: 'failed', fragmentId: request.fragmentId, failure: { message, position: sql?.position ?? 0, sqlCode: sql?.code } };
  }
}

parentPort?.on('message', (value: unknown) => {
  if (!isFragmentRequest(value)) return;
  // No transfer list: see fragment-messages.ts (a detached buffer slows every typed-array loop of this thread).
  parentPort?.postMessage(reply(value));
});
// The pool waits for this notice (every module above is loaded) before its process reports ready.
parentPort?.postMessage({ kind: 'started' });
