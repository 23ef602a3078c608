// The pool of parallel query threads of one process: a fixed number of worker_threads, each running one
// fragment at a time, with a FIFO queue of fragments waiting for a thread. A thread that dies (crash, out of
// memory) fails the fragment it was running with a clear error and is replaced; the process goes on serving.
// A fragment names the thread it prefers (the one that ran its slice before, whose plan and JIT are warm) and
// takes it when that thread is free, any free thread otherwise. A request leaves out the context (statement and
// table version) its thread already holds (fragment-contexts.ts).
// Threads are unref'd, so an idle pool never keeps a process alive.
import { Worker } from 'node:worker_threads';
import type { ColumnBatch } from '../exec/batch.js';
import type { FragmentFailure, FragmentRequest } from './fragment-messages.js';
import { isFragmentReply } from './fragment-messages.js';
import { SentContexts } from './fragment-contexts.js';
import { sqlParallelChannel } from '../../core/diagnostics.js';
import { assert } from '../../core/assert.js';

export type FragmentOutcome =
  | { readonly kind: 'done'; readonly batches: readonly ColumnBatch[] }
  | { readonly kind: 'failed'; readonly failure: FragmentFailure }
  | { readonly kind: 'died'; readonly message: string };

interface Task {
  readonly request: FragmentRequest;
  /** Index of the thread this fragment runs best on; any free thread takes it when that one is busy. */
  readonly preferredIndex: number;
  readonly resolve: (outcome: FragmentOutcome) => void;
}

interface PoolThread {
  readonly worker: Worker;
  task: Task | undefined;
  /** Mirror of the contexts the thread holds: requests leave out the ones it has. */
  readonly sent: SentContexts;
  /** Settles when the thread has loaded its modules (or is gone): until then a fragment would wait for it. */
  readonly started: Promise<void>;
}

export class FragmentThreadPool {
  private readonly threads: PoolThread[] = [];
  private readonly queue: Task[] = [];
  private running = 0;
  private closed = false;

  /** `heapBytesMax`: old-generation heap limit of each thread, 0 for Node's default. */
  constructor(readonly threadCount: number, private readonly script: URL, private readonly heapBytesMax = 0) {
    assert(threadCount >= 2, 'a pool of fewer than two threads runs nothing in parallel');
    for (let k = 0; k < threadCount; k++) this.threads.push(this.startThread());
  }

  /**
   * Runs one fragment on thread `preferredIndex` (modulo the thread count) when it is free, else on the next free
   * thread; the promise never rejects (failures are outcomes).
   */
  run(request: FragmentRequest, preferredIndex = 0): Promise<FragmentOutcome> {
    assert(Number.isInteger(preferredIndex) && preferredIndex >= 0, 'a preferred thread is a thread index');
    return new Promise((resolve) => {
      this.queue.push({ request, preferredIndex: preferredIndex % this.threadCount, resolve });
      this.dispatch();
    });
  }

  /**
   * Settles once every thread has loaded its modules. A process that serves queries waits for it before it
   * reports ready, so the threads' start-up (tens of ms of CPU each) is not paid by its first requests.
   */
  async started(): Promise<void> {
    await Promise.all(this.threads.map((thread) => thread.started));
  }

  /** Fragments running on threads now (not those queued). */
  get runningCount(): number {
    return this.running;
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.threads.map((thread) => thread.worker.terminate()));
  }

  private startThread(): PoolThread {
    const heapMb = Math.ceil(this.heapBytesMax / (1024 * 1024));
    const worker = new Worker(this.script, this.heapBytesMax > 0 ? { resourceLimits: { maxOldGenerationSizeMb: heapMb } } : {});
    let markStarted = (): void => undefined;
    const started = new Promise<void>((resolve) => { markStarted = resolve; });
    const thread: PoolThread = { worker, task: undefined, started, sent: new SentContexts() };
    worker.unref();
    // A thread's first message is the notice it posts once its modules are loaded.
    worker.once('message', markStarted);
    worker.once('exit', markStarted);
    worker.on('message', (value: unknown) => {
      const task = thread.task;
      if (!isFragmentReply(value) || task === undefined || value.fragmentId !== task.request.fragmentId) return;
      const cancelled = value.kind === 'failed' && value.failure.sqlCode === 'SVC_SQL_CANCELLED';
      this.finish(thread, value.kind === 'done' ? 'ok' : cancelled ? 'cancelled' : 'error');
      task.resolve(value.kind === 'done' ? { kind: 'done', batches: value.batches } : { kind: 'failed', failure: value.failure });
    });
    worker.on('error', (error) => this.onThreadGone(thread, error.message));
    worker.on('exit', (code) => this.onThreadGone(thread, `exit code ${code}`));
    return thread;
  }

  /** A dead thread: fail its fragment, start a replacement in its place. */
  private onThreadGone(thread: PoolThread, why: string): void {
    const index = this.threads.indexOf(thread);
    if (index < 0) return;
    const task = thread.task;
    thread.task = undefined;
    if (this.closed) {
      this.threads.splice(index, 1);
    } else {
      this.threads[index] = this.startThread();
      sqlParallelChannel.publish({ kind: 'threadDied', running: this.running });
    }
    if (task !== undefined) {
      this.running -= 1;
      sqlParallelChannel.publish({ kind: 'finished', outcome: 'error', running: this.running });
      task.resolve({ kind: 'died', message: `parallel query thread died (${why})` });
    }
    if (!this.closed) this.dispatch();
  }

  private finish(thread: PoolThread, outcome: 'ok' | 'error' | 'cancelled'): void {
    thread.task = undefined;
    this.running -= 1;
    sqlParallelChannel.publish({ kind: 'finished', outcome, running: this.running });
    this.dispatch();
  }

  /** Hands queued fragments, oldest first, to free threads: each to its preferred thread when that one is free. */
  private dispatch(): void {
    while (this.queue.length > 0) {
      const task = this.queue[0];
      const preferred = this.threads[task.preferredIndex];
      const thread = preferred !== undefined && preferred.task === undefined ? preferred : this.threads.find((candidate) => candidate.task === undefined);
      if (thread === undefined) return;
      this.queue.shift();
      thread.task = task;
      this.running += 1;
      sqlParallelChannel.publish({ kind: 'started', running: this.running });
      const request = task.request;
      thread.worker.postMessage(thread.sent.heldForNext(request.contextKey) ? { ...request, context: undefined } : request);
    }
  }
}
