// Runs a query over row slices of its table on the process's parallel query threads and merges the partial
// results on the calling thread. Only shapes parallel-shape.ts accepts and scans of at least
// query.parallel.min.rows rows go this way; everything else (and every small lookup) runs on the calling thread
// as before. The scanned rows split into one contiguous share per pool thread. A text not yet known to be short
// leaves the calling thread's event loop free (the threads run every share); a short one has the calling thread
// run the first share itself meanwhile, so it waits for one thread hop instead of idling through two. All
// shares read one snapshot (the same _txn), so the merged answer is the single-threaded one; ORDER BY and LIMIT
// are applied after the merge by the ordinary operators.
import type { Statement } from '../syntax/ast.js';
import type { Cancellation, QueryFactory } from '../exec/operator.js';
import type { ColumnBatch } from '../exec/batch.js';
import { MergedRowsFactory } from './merged-rows-factory.js';
import { orderBy, limitKeepRows } from '../exec/top-n.js';
import { LimitFactory, limitRange } from '../exec/limit.js';
import type { Catalog } from '../../storage/catalog.js';
import type { PartitionRows, TableSnapshot } from '../../storage/table-reader.js';
import { ERROR_CODES, InternalError, SqlError } from '../../core/errors.js';
import type { ErrorCode } from '../../core/errors.js';
import type { ParallelShape } from './parallel-shape.js';
import { parallelShapeOf } from './parallel-shape.js';
import { concatRows, mergeAggregateRows } from './partial-merge.js';
import type { FragmentOutcome } from './thread-pool.js';
import { FragmentThreadPool } from './thread-pool.js';
import { runCallerShare } from './caller-share.js';
import { CancelFlags } from './cancel-flags.js';
import type { FragmentContext, FragmentRequest } from './fragment-messages.js';
import { fragmentContextKey } from './fragment-contexts.js';
import { sqlParallelChannel } from '../../core/diagnostics.js';
import { assert } from '../../core/assert.js';
import type { ExecutionWay } from './parallel-choice.js';
import { ParallelChoice } from './parallel-choice.js';

export interface ParallelSettings {
  /** Pool threads; below 2 the pool is off. */
  readonly threadCount: number;
  /** Tables with fewer rows run on the calling thread (no thread hop for a small lookup). */
  readonly rowsMin: number;
  /** Heap limit of each thread in bytes; 0 = Node's default. */
  readonly heapBytesMax: number;
}

/** How often the caller looks at its cancellation while fragments run, in ms (the 100 ms stop budget). */
const CANCEL_POLL_MS = 5;
/**
 * Scans under this many times query.parallel.min.rows try the calling thread first (ParallelChoice): near the
 * threshold the row estimate is least sure a split pays, and a run there blocks the event loop only briefly.
 */
const LOCAL_FIRST_ROWS_FACTOR = 2;

let pool: FragmentThreadPool | undefined;
let rowsMin = Infinity;
/** Which way each large query text ran faster lately, on this process. */
let choice = new ParallelChoice();
let nextFragmentId = 1;
/**
 * The parallel shape of each compiled query (null: it does not split), worked out on its first run: the compile
 * cache hands one factory to every run of a text over unchanged tables, and every query, small ones included,
 * passes here, so the statement is not walked again on each run.
 */
const shapes = new WeakMap<QueryFactory, ParallelShape | null>();
const cancelFlags = new CancelFlags();

/** Starts (or stops) this process's pool; called once per worker process at start. */
export function configureParallel(settings: ParallelSettings): void {
  void pool?.close();
  pool = undefined;
  rowsMin = settings.rowsMin;
  choice = new ParallelChoice();
  if (settings.threadCount < 2) return;
  const script = new URL(import.meta.url.endsWith('.ts') ? './fragment-thread.ts' : './fragment-thread.js', import.meta.url);
  pool = new FragmentThreadPool(settings.threadCount, script, settings.heapBytesMax);
}

/** Settles when this process's parallel threads have started (at once when the pool is off). */
export async function parallelThreadsStarted(): Promise<void> {
  await pool?.started();
}

export interface ParallelRun {
  /** The statement's text: what ParallelChoice learns run times by. */
  readonly text: string;
  readonly factory: QueryFactory;
  readonly statement: Statement;
  readonly catalog: Catalog;
  readonly cancellation: Cancellation;
  readonly timeoutMs: number;
  readonly queryNowMicros: number;
  /** The snapshots the query was compiled over, by stored name: the fragments read the same ones. */
  readonly snapshots: ReadonlyMap<string, TableSnapshot>;
}

/**
 * How a query runs: `factory` is the merged result computed on the pool, or undefined when the query runs on
 * the calling thread; `way` is set when the choice was learned (the caller reports the run's time with
 * recordParallelRun), undefined when the query could not or need not be split (pool off, shape not
 * splittable, too few rows, cold partitions).
 */
export interface ParallelOutcome {
  readonly factory: QueryFactory | undefined;
  readonly way: ExecutionWay | undefined;
}

const NOT_SPLIT: ParallelOutcome = { factory: undefined, way: undefined };

export async function runInParallel(run: ParallelRun): Promise<ParallelOutcome> {
  if (pool === undefined) return NOT_SPLIT;
  const split = splittableShape(run);
  if (split === undefined) return NOT_SPLIT;
  const way = choice.choose(run.text, split.snapshot.notedScanRows() < rowsMin * LOCAL_FIRST_ROWS_FACTOR);
  if (way === 'local') return { factory: undefined, way };
  const batches = await runShares(pool, split.shape, split.snapshot, run, choice.isShortOnThreads(run.text));
  return { factory: finalFactory(split.shape, run.factory, batches), way };
}

/**
 * Reports how long a run that runInParallel chose a way for took, from the choice to its last byte, and the
 * process CPU time (every thread: the parallel threads' too) spent meanwhile.
 */
export function recordParallelRun(text: string, way: ExecutionWay, elapsedMs: number, cpuMs: number): void {
  choice.record(text, way, elapsedMs, cpuMs);
}

/** The shape and table snapshot of a query worth splitting; undefined when it should run on the calling thread. */
function splittableShape(run: ParallelRun): { shape: ParallelShape; snapshot: TableSnapshot } | undefined {
  const snapshotOf = (table: string): TableSnapshot | undefined => {
    const stored = run.catalog.resolveName(table);
    return stored === undefined ? undefined : run.snapshots.get(stored);
  };
  const timestampColumnOf = (table: string): string | undefined => {
    const meta = snapshotOf(table)?.meta;
    return meta?.columns[meta.timestampIndex]?.name;
  };
  let shape = shapes.get(run.factory);
  if (shape === undefined) {
    shape = parallelShapeOf(run.statement, run.factory.columns, timestampColumnOf) ?? null;
    shapes.set(run.factory, shape);
  }
  if (shape === null) return undefined;
  const snapshot = snapshotOf(shape.tableName);
  // What the compiled scans will read after interval pruning decides, not the table's size: a one-day
  // interval over a large table is a small query, and the thread hop would cost more than it saves.
  if (snapshot === undefined || snapshot.notedScanRows() < rowsMin) return undefined;
  // Cold partitions are fetched by the calling thread's cold read session (leases, shared downloads, metrics),
  // which the fragment threads do not have: such a table runs on the calling thread.
  if (snapshot.partitions.some((partition) => partition.entry.cold?.local === false)) return undefined;
  return { shape, snapshot };
}

/**
 * Runs the query's scan rows as one contiguous share per pool thread, in table order. When `callerShares`, the
 * calling thread runs the first share itself (blocking its event loop for that share, as a single-threaded run
 * would for all of them) and the threads run the rest; otherwise the threads run every share.
 */
async function runShares(threads: FragmentThreadPool, shape: ParallelShape, snapshot: TableSnapshot, run: ParallelRun, callerShares: boolean): Promise<ColumnBatch[]> {
  const cancel = cancelFlags.acquire();
  const flag = new Int32Array(cancel.buffer);
  const stop = (): void => {
    Atomics.store(flag, cancel.index, 1);
  };
  const context: FragmentContext = { planKey: run.text, statement: shape.fragment, snapshot: { dir: snapshot.dir, meta: snapshot.meta, txn: snapshot.txn } };
  const base = {
    kind: 'run' as const, contextKey: fragmentContextKey(context), context, queryNowMicros: run.queryNowMicros, deadlineMs: run.cancellation.deadlineMs, timeoutMs: run.timeoutMs,
    cancelFlag: cancel.buffer, cancelIndex: cancel.index,
  };
  const slices = splitRows(snapshot.notedScanRanges(), threads.threadCount);
  const callerSlice = callerShares && slices.length > 1 ? slices[0] : undefined;
  // Slice k prefers thread k, run after run, so the thread that bound and warmed its plan runs it again.
  const threadSlices = slices.map((slice, index) => ({ slice, index })).slice(callerSlice === undefined ? 0 : 1);
  // The threads watch the deadline themselves (so a timeout reports as one); the caller relays the client leaving.
  let cancelSeenMs = -1;
  const poll = setInterval(() => {
    if (!run.cancellation.cancelled || cancelSeenMs >= 0) return;
    cancelSeenMs = performance.now();
    stop();
  }, CANCEL_POLL_MS);
  try {
    const pending = Promise.all(threadSlices.map(({ slice, index }) => {
      const request: FragmentRequest = { ...base, fragmentId: nextFragmentId++, slice };
      // The first failure stops the other fragments at their next batch.
      return threads.run(request, index).then((outcome) => {
        if (outcome.kind !== 'done') stop();
        return outcome;
      });
    }));
    const own = callerSlice === undefined ? [] : await runOwnShare(callerSlice, snapshot, run, shape, stop, pending);
    const outcomes = await pending;
    if (cancelSeenMs >= 0) sqlParallelChannel.publish({ kind: 'cancelStopped', running: threads.runningCount, stopMs: performance.now() - cancelSeenMs });
    return [...own, ...outcomes.flatMap((outcome) => batchesOrThrow(outcome, outcomes))];
  } finally {
    clearInterval(poll);
    // Every fragment has settled by now (each path above awaits them all), so no thread reads the flag any more.
    cancelFlags.release(cancel);
  }
}

/** The caller's share; when it fails, the threads are stopped and awaited before the failure goes on. */
async function runOwnShare(slice: readonly PartitionRows[], snapshot: TableSnapshot, run: ParallelRun, shape: ParallelShape, stop: () => void, pending: Promise<unknown>): Promise<ColumnBatch[]> {
  try {
    return runCallerShare({
      catalog: run.catalog, snapshot, planKey: run.text, statement: shape.fragment, slice,
      cancellation: run.cancellation, timeoutMs: run.timeoutMs, queryNowMicros: run.queryNowMicros,
    });
  } catch (error) {
    stop();
    await pending;
    throw error;
  }
}

/** The batches of a fragment that finished; the most telling failure of the query when one did not. */
function batchesOrThrow(outcome: FragmentOutcome, all: readonly FragmentOutcome[]): readonly ColumnBatch[] {
  if (outcome.kind === 'done') return outcome.batches;
  // A fragment stopped by another's failure reports "cancelled"; the failure that caused it is the one to show.
  const cause = all.find((other) => other.kind === 'died') ?? all.find((other) => other.kind === 'failed' && other.failure.sqlCode !== 'SVC_SQL_CANCELLED') ?? outcome;
  if (cause.kind === 'died') throw new InternalError(cause.message);
  if (cause.kind === 'done') return cause.batches;
  const code = cause.failure.sqlCode;
  if (code === undefined || !isErrorCode(code)) throw new InternalError(cause.failure.message);
  throw new SqlError(cause.failure.message, cause.failure.position, code);
}

function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERROR_CODES, code);
}

/** Slices of about equal row counts of `ranges` (in table order); one slice may span several partitions. */
export function splitRows(ranges: readonly PartitionRows[], sliceCount: number): PartitionRows[][] {
  assert(Number.isInteger(sliceCount) && sliceCount >= 1, 'rows split into at least one slice');
  let total = 0;
  for (const range of ranges) total += range.hi - range.lo;
  const target = Math.max(1, Math.ceil(total / sliceCount));
  const slices: PartitionRows[][] = [];
  let current: PartitionRows[] = [];
  let filled = 0;
  for (const range of ranges) {
    let lo = range.lo;
    while (lo < range.hi) {
      const hi = Math.min(range.hi, lo + target - filled);
      current.push({ partitionIndex: range.partitionIndex, lo, hi });
      filled += hi - lo;
      lo = hi;
      if (filled >= target) {
        slices.push(current);
        current = [];
        filled = 0;
      }
    }
  }
  if (current.length > 0) slices.push(current);
  return slices;
}

/** The merged rows behind the ordinary ORDER BY and LIMIT operators, with the compiled query's columns. */
function finalFactory(shape: ParallelShape, compiled: QueryFactory, batches: readonly ColumnBatch[]): QueryFactory {
  const rows = shape.kind === 'aggregate' ? mergeAggregateRows(shape, batches) : concatRows(batches);
  let factory: QueryFactory = new MergedRowsFactory(compiled.columns, rows, compiled.timestampIndex);
  const limit = shape.limit;
  if (shape.sortKeys.length > 0) factory = orderBy(factory, shape.sortKeys, limit === undefined ? undefined : limitKeepRows(limit.lo, limit.hi));
  if (limit !== undefined) factory = new LimitFactory(factory, limitRange(limit.lo, limit.hi), limit.hi === undefined ? `${limit.lo}` : `${limit.lo},${limit.hi}`);
  return factory;
}
