// Entry of a parallel query thread (worker_threads): runs fragments one at a time. Each request carries the
// caller's _meta and _txn, so the thread maps exactly the rows the caller's snapshot sees, restricted to its
// slice; it binds the fragment statement itself (its own compile cache), drains it, and replies with the result
// batches in transferable form. Cancellation is a shared flag read between batches, plus the query deadline.
import { parentPort } from 'node:worker_threads';
import { dirname, join } from 'node:path';
import type { Cancellation } from '../exec/operator.js';
import { createExecContext, drain } from '../exec/operator.js';
import type { QueryFactory } from '../exec/operator.js';
import type { SourceEnv } from '../bind/bind-source.js';
import { bindQueryWith } from '../bind/bind-query.js';
import { finishPlan } from '../exec/plan-query.js';
import { createRuntime } from '../codegen/runtime.js';
import { Catalog } from '../../storage/catalog.js';
import { TableSnapshot } from '../../storage/table-reader.js';
import { SqlError, sqlSemanticError } from '../../core/errors.js';
import type { ColumnBatch } from '../exec/batch.js';
import type { FragmentReply, FragmentRequest } from './fragment-messages.js';
import { encodeBatch, isFragmentRequest } from './fragment-messages.js';

/** Smallest scan batch of a fragment (batches start there and grow while the consumer keeps pace). */
const FRAGMENT_BATCH_ROWS_MIN = 256;

/** One catalog per database directory, so symbol texts are read once per thread. */
const catalogs = new Map<string, Catalog>();
/**
 * The snapshot of the last txn seen per table directory: fragments of one query (and of later queries on an
 * unchanged table) reuse its column mappings. An entry idle for SNAPSHOT_IDLE_MS is dropped, so the mappings of
 * a replaced partition version or a dropped table do not keep its files alive.
 */
const snapshots = new Map<string, { snapshot: TableSnapshot; usedMs: number }>();
const SNAPSHOT_IDLE_MS = 10_000;

function baseSnapshot(request: FragmentRequest, catalog: Catalog): TableSnapshot {
  const { dir, meta, txn } = request.snapshot;
  const cached = snapshots.get(dir);
  const now = Date.now();
  if (cached !== undefined && cached.snapshot.txn.txn === txn.txn && cached.snapshot.txn.tableId === txn.tableId && cached.snapshot.meta.structureVersion === meta.structureVersion) {
    cached.usedMs = now;
    return cached.snapshot;
  }
  const snapshot = new TableSnapshot(dir, meta, txn, catalog.symbolCache);
  snapshots.set(dir, { snapshot, usedMs: now });
  return snapshot;
}

setInterval(() => {
  const now = Date.now();
  for (const [dir, entry] of snapshots) if (now - entry.usedMs > SNAPSHOT_IDLE_MS) snapshots.delete(dir);
}, SNAPSHOT_IDLE_MS).unref();

function catalogFor(dbDir: string): Catalog {
  let catalog = catalogs.get(dbDir);
  if (catalog === undefined) {
    catalog = new Catalog(dbDir);
    catalogs.set(dbDir, catalog);
  }
  return catalog;
}

/** A source environment whose only table is the caller's snapshot, cut to this fragment's slice. */
function fragmentEnv(request: FragmentRequest): SourceEnv {
  const dbDir = dirname(request.snapshot.dir);
  const catalog = catalogFor(dbDir);
  const snapshot = baseSnapshot(request, catalog).withSlice(request.slice, FRAGMENT_BATCH_ROWS_MIN);
  const env: SourceEnv = {
    catalog,
    bindQuery: (query) => bindQueryWith(query, env),
    compileQuery: (query) => finishPlan(bindQueryWith(query, env)),
    finishPlan,
    openTable(name, position) {
      const stored = catalog.resolveName(name);
      if (stored === undefined || join(dbDir, stored) !== request.snapshot.dir) throw sqlSemanticError(`table does not exist [table=${name}]`, position);
      return snapshot;
    },
  };
  return env;
}

function runFragment(request: FragmentRequest): ColumnBatch[] {
  const flag = new Int32Array(request.cancelFlag);
  const cancellation: Cancellation = {
    deadlineMs: request.deadlineMs,
    get cancelled(): boolean {
      return Atomics.load(flag, 0) !== 0;
    },
    set cancelled(value: boolean) {
      if (value) Atomics.store(flag, 0, 1);
    },
    reason: 'cancelled by user',
  };
  const ctx = createExecContext(createRuntime(request.queryNowMicros), cancellation, request.timeoutMs);
  if (request.statement.kind !== 'query') throw new SqlError('a parallel fragment must be a query', 0, 'SVC_INTERNAL', 500);
  const factory: QueryFactory = finishPlan(bindQueryWith(request.statement.query, fragmentEnv(request)));
  const cursor = factory.open(ctx);
  try {
    return drain(cursor, ctx);
  } finally {
    cursor.close();
  }
}

function reply(request: FragmentRequest): { message: FragmentReply; transfer: ArrayBuffer[] } {
  const transfer: ArrayBuffer[] = [];
  try {
    const batches = runFragment(request).map((batch) => encodeBatch(batch, transfer));
    return { message: { kind: 'done', fragmentId: request.fragmentId, batches }, transfer };
  } catch (error) {
    const sql = error instanceof SqlError ? error : undefined;
    const message = error instanceof Error ? error.message : String(error);
    return { message: { kind: 'failed', fragmentId: request.fragmentId, failure: { message, position: sql?.position ?? 0, sqlCode: sql?.code } }, transfer: [] };
  }
}

parentPort?.on('message', (value: unknown) => {
  if (!isFragmentRequest(value)) return;
  const { message, transfer } = reply(value);
  parentPort?.postMessage(message, transfer);
});
// The pool waits for this notice (every module above is loaded) before its process reports ready.
parentPort?.postMessage({ kind: 'started' });
