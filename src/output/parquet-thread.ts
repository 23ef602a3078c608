// Runs Parquet encoding in a worker_threads thread so the HTTP event loop keeps answering while an export
// compresses. encodeParquet() posts the query's batches (typed arrays copied into SharedArrayBuffers, symbol
// tables sent once and then only their growth) and yields the file's bytes. Nothing is transferred: a transfer
// detaches the buffer here, and this thread's first detached buffer would slow every query it runs afterwards. Memory stays bounded: at most
// parquetThreadBatchesInFlightMax batches wait in the thread, and no batch is read from the query while the
// consumer has not taken the bytes already produced (the generator is suspended at `yield`).
// At most parquetThreadsActiveMax threads encode at once. A thread that finished an export cleanly is kept
// (up to parquetThreadsIdleMax) for the next one, since starting one costs ~100 ms; a failed or cancelled
// one is terminated.
import { Worker } from 'node:worker_threads';
import { errorFromPayload, errorToPayload, InternalError, sqlRuntimeError } from '../core/errors.js';
import { assert } from '../core/assert.js';
import type { ColumnBatch, Vector, VectorData } from '../sql/exec/batch.js';
import { sharedCopy } from '../core/shared-copy.js';
import { vectorKindOfType } from '../types/column-type.js';
import type { ExportColumn, ParquetExportOptions } from './parquet-params.js';
import { parseFromParquetThread } from './parquet-thread-messages.js';
import type { FromParquetThread, ParquetThreadInit, ToParquetThread, WireBatch, WireVector } from './parquet-thread-messages.js';

/** Batches posted to the thread and not yet encoded: one being encoded while the next waits. */
export const parquetThreadBatchesInFlightMax = 2;
/** Heap bound of an encoding thread; one row group of wide string columns is the largest thing it holds. */
export const parquetThreadHeapMbMax = 2048;
/** Encoding threads busy at once, per process; further exports wait for one (more threads than cores only add memory). */
export const parquetThreadsActiveMax = 2;
/** Finished threads kept for later exports, per process. */
export const parquetThreadsIdleMax = 1;

export interface ParquetEncodeRequest {
  readonly columns: readonly ExportColumn[];
  /** Already checked against the columns by checkParquetColumns. */
  readonly options: ParquetExportOptions;
  /** Designated timestamp of the result, -1 when none (needed when options.partitionBy ≠ NONE). */
  readonly timestampIndex: number;
  readonly batches: AsyncIterable<ColumnBatch>;
  /** QuestDB answers an empty result with the error `empty table`; true writes an empty file instead. */
  readonly allowEmpty?: boolean;
}

/**
 * Encodes the batches as Parquet (a ZIP of Parquet files when partitioned) in a worker thread and yields the
 * output in order. Stop iterating (break, return) to cancel: the thread is terminated and the batch iterator is
 * closed. Errors from the thread are rethrown as the SvcError they were; `empty table` is a SqlError at 0.
 */
export async function* encodeParquet(request: ParquetEncodeRequest): AsyncGenerator<Uint8Array, void, undefined> {
  const thread = await acquireThread();
  const inbox = new ThreadInbox(thread);
  const input = request.batches[Symbol.asyncIterator]();
  const symbolTables = new SymbolTableSender();
  const init: ParquetThreadInit = { columns: request.columns, options: request.options, timestampIndex: request.timestampIndex };
  post(thread, { kind: 'start', init });
  let inFlight = 0;
  let inputDone = false;
  let rows = 0;
  let done = false;
  try {
    while (!done) {
      const message = inbox.take();
      if (message !== undefined) {
        if (message.kind === 'chunk') yield message.bytes;
        else if (message.kind === 'ack') inFlight--;
        else if (message.kind === 'done') done = true;
        else throw errorFromPayload(message.error);
      } else if (!inputDone && inFlight < parquetThreadBatchesInFlightMax) {
        const next = await input.next();
        if (next.done === true) {
          inputDone = true;
          if (rows === 0 && request.allowEmpty !== true) throw sqlRuntimeError('empty table', 0);
          post(thread, { kind: 'end' });
        } else {
          const batch = toWireBatch(next.value, symbolTables);
          post(thread, batch);
          inFlight++;
          rows += batch.rowCount;
        }
      } else {
        await inbox.wait();
      }
    }
  } finally {
    inbox.detach();
    try {
      if (!inputDone) await input.return?.();
    } finally {
      if (done) releaseThread(thread);
      else await terminateThread(thread);
    }
  }
}

/** Starts one thread ahead of the first export (at server start), so that export does not wait for it. */
export async function warmParquetThreadPool(): Promise<void> {
  if (idleThreads.length > 0) return;
  releaseThread(await acquireThread());
}

function post(thread: Worker, message: ToParquetThread): void {
  thread.postMessage(message);
}

const RUNNING_FROM_SOURCE = import.meta.url.endsWith('.ts');
const WORKER_URL = new URL(RUNNING_FROM_SOURCE ? './parquet-thread-worker.ts' : './parquet-thread-worker.js', import.meta.url);
const idleThreads: { thread: Worker; forget: () => void }[] = [];
let activeThreads = 0;
const waitingForThread: (() => void)[] = [];

/**
 * Built code starts the worker file directly. Tests and benches run the TypeScript sources under tsx, whose
 * loader a worker does not inherit from --import on Node 20, so there a small bootstrap registers it first.
 */
async function acquireThread(): Promise<Worker> {
  while (activeThreads >= parquetThreadsActiveMax) {
    await new Promise<void>((resolve) => waitingForThread.push(resolve));
  }
  activeThreads++;
  const idle = idleThreads.pop();
  if (idle !== undefined) {
    idle.thread.off('exit', idle.forget);
    idle.thread.off('error', idle.forget);
    idle.thread.ref();
    return idle.thread;
  }
  const options = { resourceLimits: { maxOldGenerationSizeMb: parquetThreadHeapMbMax } };
  if (!RUNNING_FROM_SOURCE) return new Worker(WORKER_URL, options);
  const bootstrap = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(WORKER_URL.href)}); })`;
  return new Worker(bootstrap, { ...options, eval: true });
}

/** Frees the thread's slot for the next waiting export. */
function endActive(): void {
  activeThreads--;
  assert(activeThreads >= 0, 'every released thread was acquired');
  waitingForThread.shift()?.();
}

async function terminateThread(thread: Worker): Promise<void> {
  endActive();
  await thread.terminate();
}

function releaseThread(thread: Worker): void {
  if (idleThreads.length >= parquetThreadsIdleMax) {
    void terminateThread(thread);
    return;
  }
  endActive();
  // An idle thread must not keep the process alive, and one that dies while idle is simply forgotten.
  thread.unref();
  const forget = (): void => {
    const index = idleThreads.findIndex((idle) => idle.thread === thread);
    if (index >= 0) idleThreads.splice(index, 1);
  };
  thread.on('exit', forget);
  thread.on('error', forget);
  idleThreads.push({ thread, forget });
}

/** Messages from the thread in arrival order; a crash or unexpected exit becomes an error message. */
class ThreadInbox {
  private readonly queue: FromParquetThread[] = [];
  private wake: (() => void) | undefined;
  private readonly onMessage = (raw: unknown): void => this.push(parseFromParquetThread(raw));
  private readonly onError = (error: Error): void => {
    this.push({ kind: 'error', error: errorToPayload(new InternalError(`parquet thread failed: ${error.message}`)) });
  };
  // A normal end always posts `done` first, which ends the export before any exit.
  private readonly onExit = (code: number): void => {
    this.push({ kind: 'error', error: errorToPayload(new InternalError(`parquet thread exited during an export (code ${code})`)) });
  };

  constructor(private readonly thread: Worker) {
    thread.on('message', this.onMessage);
    thread.on('error', this.onError);
    thread.on('exit', this.onExit);
  }

  take(): FromParquetThread | undefined {
    return this.queue.shift();
  }

  wait(): Promise<void> {
    assert(this.wake === undefined, 'one reader waits on the inbox at a time');
    if (this.queue.length > 0) return Promise.resolve();
    return new Promise((resolve) => {
      this.wake = resolve;
    });
  }

  detach(): void {
    this.thread.off('message', this.onMessage);
    this.thread.off('error', this.onError);
    this.thread.off('exit', this.onExit);
  }

  private push(message: FromParquetThread): void {
    this.queue.push(message);
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}

/**
 * Symbol tables are long-lived and shared by every batch of a column, so each crosses once with an id and then
 * only its appended entries (symbol dictionaries are append-only).
 */
class SymbolTableSender {
  private readonly tables = new WeakMap<readonly string[], { id: number; sent: number }>();
  private nextId = 0;

  wire(symbols: readonly string[]): Pick<WireVector, 'symbolTableId' | 'symbolsFrom' | 'symbolsAdded'> {
    let state = this.tables.get(symbols);
    if (state === undefined) {
      state = { id: this.nextId++, sent: 0 };
      this.tables.set(symbols, state);
    }
    assert(symbols.length >= state.sent, 'symbol tables only grow');
    const from = state.sent;
    state.sent = symbols.length;
    return { symbolTableId: state.id, symbolsFrom: from, symbolsAdded: from < symbols.length ? symbols.slice(from) : undefined };
  }
}

/**
 * Copies rows [0, rowCount) of every vector into SharedArrayBuffers the thread reads in place: batch vectors may
 * be views of mmap'd storage or of buffers an operator reuses, and nothing here writes a copy once posted. BINARY
 * values are copied one by one, as the structured clone of a view would copy its whole underlying buffer.
 */
function toWireBatch(batch: ColumnBatch, symbolTables: SymbolTableSender): WireBatch {
  const vectors = batch.vectors.map((vector: Vector): WireVector => {
    const data = Array.isArray(vector.data)
      ? wireArrayValues(vector, batch.rowCount)
      : sharedCopy(vector.data, batch.rowCount);
    const exact = vector.exact === undefined ? undefined : sharedCopy(vector.exact, batch.rowCount);
    const symbols = vector.symbols === undefined ? {} : symbolTables.wire(vector.symbols);
    return { type: vector.type, data, exact, ...symbols };
  });
  return { kind: 'batch', rowCount: batch.rowCount, vectors };
}

/** Strings are cloned as they are; each BINARY value is cut to its own bytes first. */
function wireArrayValues(vector: Vector, rowCount: number): VectorData {
  if (vectorKindOfType(vector.type) !== 'bin') return vector.data.slice(0, rowCount);
  return (vector.data as (Uint8Array | null)[]).slice(0, rowCount).map((value) => value?.slice() ?? null);
}
